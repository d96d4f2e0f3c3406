import { EventId } from '../../common/events/event';
import { AttemptDecision, AttemptResult } from '../domain/delivery';
import { EndpointId } from '../domain/webhook-endpoint';

/** A delivery this instance has claimed: its lease runs until it completes or expires. */
export interface ClaimedDelivery {
  readonly id: number;
  /** Attempts made so far, this one included: the claim's fencing token. */
  readonly attempt: number;
  /** This attempt's place in the retry schedule (1 for the first of a series). */
  readonly step: number;
  readonly endpoint: {
    readonly id: EndpointId;
    readonly url: string;
    readonly owner: string;
    /** The owner key's scopes now; none when it is revoked. */
    readonly ownerScopes: readonly string[];
    /** The organisation whose staff the owner key is, if any. */
    readonly ownerOrganizationId: number | null;
    /** The secrets that sign, as kept (the previous one only during its overlap). */
    readonly sealedSecrets: readonly string[];
  };
  readonly event: {
    /** Its id, the `webhook-id` of every attempt. */
    readonly id: EventId;
    /** The name of its type. */
    readonly type: string;
    readonly occurredAt: string;
    /** The object, as the JSON text recorded. */
    readonly dataJson: string;
    readonly owner: string | null;
    /** The organisation the event's object belongs to (an order's pet's), for order events. */
    readonly organizationId: number | null;
  };
}

/**
 * Port: the deliveries waiting in PostgreSQL. Any number of instances claim from it at once; a
 * delivery is claimed by one at a time, for a lease, and taken over by another when the lease ends
 * without an answer (its holder died).
 */
export abstract class DeliveryQueue {
  /**
   * Claims due deliveries of enabled endpoints: at most `limit`, at most `perEndpoint` of one
   * endpoint, none of the endpoints in `busy`.
   */
  abstract claim(
    limit: number,
    perEndpoint: number,
    busy: readonly EndpointId[],
  ): Promise<ClaimedDelivery[]>;
  /**
   * Records the attempt and what follows it; disables the endpoint when it answered 410 or has
   * failed everything since `disableAfterHours` ago. Nothing if the claim was taken over meanwhile.
   */
  abstract complete(
    delivery: ClaimedDelivery,
    result: AttemptResult,
    decision: AttemptDecision,
    attemptedAt: Date,
    disableAfterHours: number,
  ): Promise<void>;
  /** Ends a delivery unsent: its key can no longer read the event. */
  abstract drop(delivery: ClaimedDelivery): Promise<void>;
}

/** A signed POST to an endpoint. */
export interface WebhookRequest {
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/**
 * Port: sends one attempt, within the timeout, to addresses the AddressPolicy allows (checked on
 * the addresses each connection resolves to), following no redirect, reading at most 64 KiB of
 * the answer and keeping none of it.
 */
export abstract class WebhookSender {
  abstract send(request: WebhookRequest): Promise<AttemptResult>;
}

/** Port: the addresses a host name resolves to (DNS in production; a fake in tests). */
export abstract class HostResolver {
  abstract resolve(hostname: string): Promise<{ address: string; family: 4 | 6 }[]>;
}
