import { Injectable } from '@nestjs/common';
import { mayRead } from '../../common/events/event-visibility';
import { decide } from '../domain/delivery';
import { AttemptOutcome } from '../domain/delivery';
import { DeliveryPolicy } from './delivery-policy';
import { ClaimedDelivery, DeliveryQueue, WebhookSender } from './webhook-delivery';
import { WebhookSecrets } from './webhook-endpoints';
import { signatureHeader } from './webhook-signature';

/** What came of one attempt, and how long the sending took (recording it not included). */
export type AttemptReport =
  { outcome: AttemptOutcome; durationMs: number } | { outcome: 'dropped'; durationMs?: undefined };

/**
 * Makes one attempt of a claimed delivery: if the endpoint's key may still read the event, signs
 * it as Standard Webhooks says and sends it, then records what came of it and when to try again.
 * Answers the outcome, or `dropped` when the key could no longer read the event.
 */
@Injectable()
export class DeliverWebhook {
  constructor(
    private readonly queue: DeliveryQueue,
    private readonly sender: WebhookSender,
    private readonly secrets: WebhookSecrets,
    private readonly policy: DeliveryPolicy,
  ) {}

  async execute(delivery: ClaimedDelivery): Promise<AttemptReport> {
    const { endpoint, event } = delivery;
    // Checked when sent, not only when queued: scopes change and keys are revoked meanwhile.
    const owner = {
      keyId: endpoint.owner,
      scopes: endpoint.ownerScopes,
      organizationId: endpoint.ownerOrganizationId,
    };
    if (!mayRead(event, owner)) {
      await this.queue.drop(delivery);
      return { outcome: 'dropped' };
    }
    const id = event.id;
    const body =
      `{"id":${JSON.stringify(id)},"type":${JSON.stringify(event.type)},` +
      `"occurredAt":${JSON.stringify(event.occurredAt)},"data":${event.dataJson}}`;
    const attemptedAt = new Date();
    const timestamp = Math.floor(attemptedAt.getTime() / 1000);
    const secrets = endpoint.sealedSecrets.map((sealed) => this.secrets.open(sealed));
    const result = await this.sender.send({
      url: endpoint.url,
      headers: {
        'content-type': 'application/json',
        'webhook-id': id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signatureHeader(secrets, id, timestamp, body),
      },
      body,
    });
    const decision = decide(result, delivery.step, this.policy.retrySchedule, Math.random);
    await this.queue.complete(
      delivery,
      result,
      decision,
      attemptedAt,
      this.policy.disableAfterHours,
    );
    return { outcome: decision.outcome, durationMs: result.durationMs };
  }
}
