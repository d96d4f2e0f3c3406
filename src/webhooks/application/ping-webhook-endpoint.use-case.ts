import { Injectable } from '@nestjs/common';
import { EventRecorder } from '../../common/events/event-recorder';
import { Requester } from '../../common/requester';
import { checkScope } from '../../common/scopes';
import { EndpointId, WebhookEndpointNotFoundError } from '../domain/webhook-endpoint';
import { WEBHOOK_EVENTS } from '../domain/webhook.events';
import { WebhookEndpoints } from './webhook-endpoints';

@Injectable()
export class PingWebhookEndpoint {
  constructor(
    private readonly endpoints: WebhookEndpoints,
    private readonly events: EventRecorder,
  ) {}

  /**
   * Records a `webhook.test` event for this endpoint alone (never in the feed): it is delivered
   * as every event is, signed, retried, listed among the endpoint's deliveries.
   */
  async execute(requester: Requester, id: EndpointId): Promise<void> {
    checkScope(['webhooks:manage'], requester.scopes);
    if (!(await this.endpoints.find(requester.keyId, id))) {
      throw new WebhookEndpointNotFoundError(id);
    }
    await this.events.record([
      { type: WEBHOOK_EVENTS['webhook.test'], data: { endpointId: id }, owner: requester.keyId },
    ]);
  }
}
