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
    /**
     * Where its attempts go: the URL's host and port (its authority), as the claim's fairness
     * counts destinations.
     */
    readonly destination: string;
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

/** What an instance asks of a claim, with what it already holds. */
export interface ClaimRequest {
  /** Deliveries to claim at most: the instance's room. */
  readonly limit: number;
  /** Of one endpoint at most. */
  readonly perEndpoint: number;
  /** Endpoints holding as many attempts as one may: none of theirs. */
  readonly busy: readonly EndpointId[];
  /** Attempts the instance holds at most (WEBHOOK_CONCURRENCY): the whole its shares divide. */
  readonly concurrency: number;
  /** Attempts the instance holds (under way or waiting), per owner key and per destination. */
  readonly heldByOwner: ReadonlyMap<string, number>;
  readonly heldByDestination: ReadonlyMap<string, number>;
}

/** What a claim took, and how much it read to choose: the endpoints with due deliveries. */
export interface Claim {
  readonly deliveries: ClaimedDelivery[];
  readonly endpointsDue: number;
}

/**
 * Port: the deliveries waiting in PostgreSQL. Any number of instances claim from it at once; a
 * delivery is claimed by one at a time, for a lease, and taken over by another when the lease ends
 * without an answer (its holder died).
 */
export abstract class DeliveryQueue {
  /**
   * Claims due deliveries of enabled endpoints, fairly (docs/adr/0047): at most `limit`, at most
   * `perEndpoint` of one endpoint, none of the endpoints in `busy`; and no owner key or
   * destination holds, with what it already holds, more than its share: `concurrency` divided by
   * one more than the owners (destinations) that hold attempts or have some due, at least 1. The
   * one more is the room kept for an owner that is not waiting yet. Owners take turns: each one's
   * next delivery is claimed before anyone's following one, the least served first.
   */
  abstract claim(request: ClaimRequest): Promise<Claim>;
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
