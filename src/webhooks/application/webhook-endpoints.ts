import {
  EndpointChanges,
  EndpointId,
  Subscription,
  WebhookEndpoint,
} from '../domain/webhook-endpoint';
import { AttemptError, AttemptOutcome } from '../domain/delivery';

export interface NewEndpoint {
  readonly owner: string;
  readonly url: string;
  readonly events: readonly Subscription[];
  readonly description: string | null;
  /** The secret as kept (WebhookSecrets.seal). */
  readonly sealedSecret: string;
}

/** One attempt to deliver an event to an endpoint, as its key may list it. */
export interface DeliveryAttempt {
  readonly id: number;
  readonly eventId: string;
  readonly eventType: string;
  readonly attempt: number;
  readonly outcome: AttemptOutcome;
  readonly responseStatus: number | null;
  readonly error: AttemptError | null;
  readonly durationMs: number;
  readonly attemptedAt: string;
  readonly nextAttemptAt: string | null;
}

/**
 * Port: the keys' webhook endpoints. Every method takes the owner: another key's endpoint is
 * never found, changed or listed (null / false, as one that does not exist).
 */
export abstract class WebhookEndpoints {
  /**
   * Adds the endpoint unless its owner already has `limit` of them: null then. Two creations of
   * one owner, on any instance, are counted one after the other, never both under the cap.
   */
  abstract create(endpoint: NewEndpoint, limit: number): Promise<WebhookEndpoint | null>;
  /** The owner's endpoints, ascending id, after `after`. */
  abstract page(owner: string, after: EndpointId, limit: number): Promise<WebhookEndpoint[]>;
  abstract find(owner: string, id: EndpointId): Promise<WebhookEndpoint | null>;
  /**
   * Applies the changes; enabling an endpoint clears why it was disabled and resumes its pending
   * deliveries.
   */
  abstract update(
    owner: string,
    id: EndpointId,
    changes: EndpointChanges,
  ): Promise<WebhookEndpoint | null>;
  /** Deletes it with its deliveries. */
  abstract delete(owner: string, id: EndpointId): Promise<boolean>;
  /** Signs with the new secret from now on, and with the current one too for `overlapSeconds`. */
  abstract rotateSecret(
    owner: string,
    id: EndpointId,
    sealedSecret: string,
    overlapSeconds: number,
  ): Promise<boolean>;
  /** Makes the deliveries that failed for good since `since` pending again, from the first step. */
  abstract recover(owner: string, id: EndpointId, since: Date): Promise<boolean>;
  /** The endpoint's attempts, newest first, older than the attempt `before` when given. */
  abstract attempts(
    owner: string,
    id: EndpointId,
    before: number | undefined,
    limit: number,
  ): Promise<DeliveryAttempt[] | null>;
}

/** Port: endpoint secrets, issued, and kept encrypted at rest when a key is configured. */
export abstract class WebhookSecrets {
  /** A new secret, `whsec_` and 32 random bytes in base64. */
  abstract issue(): string;
  abstract seal(secret: string): string;
  abstract open(sealed: string): string;
}
