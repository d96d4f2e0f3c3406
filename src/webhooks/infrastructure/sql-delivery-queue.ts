import { Injectable } from '@nestjs/common';
import { eventIdOf, numberOfUuid } from '../../common/events/event-id';
import { SqlStatement, SqlStatements } from '../../platform/database/sql-statements';
import { AttemptDecision, AttemptResult } from '../domain/delivery';
import {
  Claim,
  ClaimedDelivery,
  ClaimRequest,
  DeliveryQueue,
} from '../application/webhook-delivery';

/**
 * Where an endpoint's attempts go: its URL's authority (host and port), lower case. Two
 * receivers on one host at different ports are two destinations, as two services are. Cut from
 * the text rather than matched (a regular expression cost 2 µs a URL, 20 ms a claim over 10,000
 * endpoints): an https URL as stored always has a path, `/` at least.
 */
const DESTINATION = `lower(split_part(split_part(w.url, '://', 2), '/', 1))`;

/**
 * Claims due deliveries fairly (docs/adr/0031, docs/adr/0047). The enabled endpoints with due
 * deliveries ("due"; none of the busy ones, $3) are counted by owner key and by destination, with
 * those this instance holds attempts for ($5..$8): each owner's and each destination's share of
 * the instance's $9 attempts is $9 / (count + 1), at least 1, the one more being room kept for an
 * owner not waiting yet. An owner's turns start after what it holds; endpoints take the owners'
 * turns in random order, and a destination's turns go to the owners' earliest turns first. At
 * most $1 endpoints within both shares are taken, turns first: round-robin over the owners, the
 * least served first. Of each, at most $2 due deliveries are candidates, and the same turns, per
 * delivery now, take at most $1 of them within both shares. Rows another instance holds are
 * skipped. A claim is a lease: `next_attempt_at` moves $4 seconds ahead, so a delivery whose
 * instance died mid-attempt is due again, for another, when the lease ends. `attempts` counts the
 * claim and fences its completion: a completion after a takeover changes nothing.
 *
 * Its plan needs no statistics (docs/adr/0050): the plan PostgreSQL keeps for it is made on the
 * tables as the service started, small, and may never be remade. So every read of the deliveries
 * is an index probe that no plan can turn into a scan of the backlog: the endpoints with pending
 * deliveries are found by skipping through the due index, one probe each ("pending_endpoints"),
 * and the claimed rows are locked by id, one probe each. An endpoint's candidates are numbered
 * in ROWS mode: in the default RANGE mode row_number reads every delivery due at the same instant
 * as the last one taken, and a fan-out gives an endpoint thousands of those.
 */
export const CLAIM: SqlStatement = {
  name: 'webhook_deliveries_claim',
  text: `WITH RECURSIVE "held_by_owner" AS (
           SELECT * FROM unnest($5::bigint[], $6::int[]) AS h(owner, held)
         ), "held_by_destination" AS (
           SELECT * FROM unnest($7::text[], $8::int[]) AS h(destination, held)
         ), "pending_endpoints" AS (
           (SELECT endpoint_id, next_attempt_at FROM webhook_deliveries
             WHERE state = 'pending' ORDER BY endpoint_id, next_attempt_at LIMIT 1)
           UNION ALL
           SELECT n.endpoint_id, n.next_attempt_at
             FROM "pending_endpoints" p
             CROSS JOIN LATERAL (
               SELECT endpoint_id, next_attempt_at FROM webhook_deliveries
                WHERE state = 'pending' AND endpoint_id > p.endpoint_id
                ORDER BY endpoint_id, next_attempt_at LIMIT 1
             ) n
         ), "due" AS (
           SELECT w.id, w.owner_key_id AS owner, ${DESTINATION} AS destination, random() AS turn
             FROM "pending_endpoints" p
             JOIN webhook_endpoints w ON w.id = p.endpoint_id
            WHERE p.next_attempt_at <= now()
              AND w.enabled AND NOT (w.id = ANY ($3::bigint[]))
         ), "shares" AS (
           SELECT greatest(1, $9 / (1 + (SELECT count(*) FROM (
                    SELECT owner FROM "due" UNION SELECT owner FROM "held_by_owner") o)))
                    AS per_owner,
                  greatest(1, $9 / (1 + (SELECT count(*) FROM (
                    SELECT destination FROM "due"
                    UNION SELECT destination FROM "held_by_destination") d)))
                    AS per_destination
         ), "owner_turns" AS (
           SELECT e.*, coalesce(o.held, 0)
                    + row_number() OVER (PARTITION BY e.owner ORDER BY e.turn) AS owner_turn
             FROM "due" e LEFT JOIN "held_by_owner" o ON o.owner = e.owner
         ), "endpoints" AS (
           SELECT t.id, t.owner, t.destination, t.turn
             FROM (
               -- Within the owners' shares first: at most about $9 rows to rank by destination.
               SELECT e.*, coalesce(h.held, 0) + row_number() OVER (
                        PARTITION BY e.destination ORDER BY e.owner_turn, e.turn)
                        AS destination_turn
                 FROM "owner_turns" e
                 JOIN "shares" s ON e.owner_turn <= s.per_owner
                 LEFT JOIN "held_by_destination" h ON h.destination = e.destination
             ) t, "shares" s
            WHERE t.destination_turn <= s.per_destination
            ORDER BY t.owner_turn, t.turn
            LIMIT $1
         ), "candidates" AS (
           SELECT d.id, e.owner, e.destination, e.turn,
                  coalesce(o.held, 0) + row_number() OVER (
                    PARTITION BY e.owner ORDER BY d.rank, e.turn) AS owner_turn
             FROM "endpoints" e
             CROSS JOIN LATERAL (
               SELECT id,
                      row_number() OVER (ORDER BY next_attempt_at ROWS UNBOUNDED PRECEDING) AS rank
                 FROM webhook_deliveries
                WHERE endpoint_id = e.id AND state = 'pending' AND next_attempt_at <= now()
                ORDER BY next_attempt_at LIMIT $2
             ) d
             LEFT JOIN "held_by_owner" o ON o.owner = e.owner
         ), "picked" AS (
           SELECT t.id
             FROM (
               SELECT c.*, coalesce(h.held, 0) + row_number() OVER (
                        PARTITION BY c.destination ORDER BY c.owner_turn, c.turn)
                        AS destination_turn
                 FROM "candidates" c
                 LEFT JOIN "held_by_destination" h ON h.destination = c.destination
             ) t, "shares" s
            WHERE t.owner_turn <= s.per_owner AND t.destination_turn <= s.per_destination
            ORDER BY t.owner_turn, t.turn
            LIMIT $1
         ), "claimed" AS (
           SELECT d.id
             FROM "picked" p
             CROSS JOIN LATERAL (
               SELECT id FROM webhook_deliveries
                WHERE id = p.id AND state = 'pending' AND next_attempt_at <= now()
                  FOR UPDATE SKIP LOCKED
             ) d
         ), "leased" AS (
           UPDATE webhook_deliveries d
              SET attempts = d.attempts + 1, step = d.step + 1,
                  next_attempt_at = now() + make_interval(secs => $4)
             FROM "claimed" WHERE d.id = "claimed".id
           RETURNING d.id, d.attempts, d.step, d.endpoint_id, d.event_id
         )
         SELECT (SELECT count(*) FROM "due")::int AS "endpointsDue",
                l.id, l.attempts AS "attempt", l.step, w.id AS "endpointId", w.url,
                ${DESTINATION} AS "destination", w.owner_key_id AS "owner",
                CASE WHEN k.revoked_at IS NULL AND NOT coalesce(k.expires_at <= now(), false)
                     THEN k.scopes ELSE '{}' END AS "ownerScopes",
                k.organization_id AS "ownerOrganizationId",
                w.secret,
                CASE WHEN w.previous_secret_until > now() THEN w.previous_secret END
                  AS "previousSecret",
                e.public_id::text AS "eventNumber", e.type, e.data::text AS "dataJson", e.owner_key_id AS "eventOwner",
                e.organization_id AS "eventOrganizationId",
                to_char(e.occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
                  AS "occurredAt"
           FROM "leased" l
           JOIN webhook_endpoints w ON w.id = l.endpoint_id
           JOIN events e ON e.id = l.event_id
           LEFT JOIN api_keys k ON k.id = w.owner_key_id
          ORDER BY l.id`,
};

/**
 * One attempt's end, in one statement: the delivery succeeds, fails for good, or waits $4 seconds
 * for its next attempt; the attempt is recorded; the endpoint's failing streak starts or ends, and
 * it is disabled when it answered 410 ($8) or has failed everything for $10 hours. A success on
 * an endpoint that is not failing changes nothing of it, and leaves its row as it is: most
 * completions of a drain are those, and each update is a row version and its WAL.
 */
export const COMPLETE: SqlStatement = {
  name: 'webhook_deliveries_complete',
  text: `WITH "delivery" AS (
           UPDATE webhook_deliveries SET
             state = CASE WHEN $3 = 'succeeded' THEN 'succeeded'
                          WHEN $4::float8 IS NULL THEN 'failed' ELSE 'pending' END,
             next_attempt_at = CASE WHEN $4::float8 IS NULL THEN next_attempt_at
                                    ELSE now() + make_interval(secs => $4::float8) END
           WHERE id = $1 AND attempts = $2 AND state = 'pending'
           RETURNING id, endpoint_id, attempts, state, next_attempt_at
         ), "attempt" AS (
           INSERT INTO webhook_attempts (delivery_id, endpoint_id, attempt, outcome,
             response_status, error, duration_ms, attempted_at, next_attempt_at)
           SELECT id, endpoint_id, attempts, $3, $5, $6, $7, $9,
                  CASE WHEN state = 'pending' THEN next_attempt_at END
             FROM "delivery"
         ), "endpoint" AS (
           UPDATE webhook_endpoints w SET
             failing_since = CASE WHEN $3 = 'succeeded' THEN NULL
                                  ELSE coalesce(w.failing_since, $9) END,
             enabled = NOT ($8 OR ($3 = 'failed'
               AND coalesce(w.failing_since <= now() - make_interval(hours => $10), false))),
             disabled_reason = CASE WHEN $8 THEN 'gone'
               WHEN $3 = 'failed' AND w.failing_since <= now() - make_interval(hours => $10)
               THEN 'failing' END
             FROM "delivery" WHERE w.id = "delivery".endpoint_id AND w.enabled
              AND NOT ($3 = 'succeeded' AND NOT $8 AND w.failing_since IS NULL
                       AND w.disabled_reason IS NULL)
         )
         SELECT 1`,
};
/**
 * Whether anything is due at all: one index probe of one table, before the claim that joins four.
 * An idle instance polls with this alone.
 */
const ANY_DUE: SqlStatement = {
  name: 'webhook_deliveries_any_due',
  text: `SELECT 1 FROM webhook_deliveries WHERE state = 'pending' AND next_attempt_at <= now() LIMIT 1`,
};
const DROP: SqlStatement = {
  name: 'webhook_deliveries_drop',
  text: `UPDATE webhook_deliveries SET state = 'dropped'
         WHERE id = $1 AND attempts = $2 AND state = 'pending'`,
};

/**
 * The endpoints first, as every transaction that changes both takes them (docs/adr/0046): its
 * deletion locks one, then its deliveries (ON DELETE CASCADE); a completion that locked the
 * delivery first and the endpoint second deadlocked with it. A batch's endpoints are locked in the
 * order given, the array's (ascending ids: two batches never wait for each other in a circle),
 * each by one probe of the primary key, which no plan made on small tables turns into a scan.
 */
export const LOCK_ENDPOINTS: SqlStatement = {
  name: 'webhook_deliveries_lock_endpoints',
  text: `SELECT 1 FROM unnest($1::bigint[]) AS e(id)
           CROSS JOIN LATERAL (
             SELECT 1 FROM webhook_endpoints w WHERE w.id = e.id FOR NO KEY UPDATE
           ) l`,
};

const numberOrNull = (id: string | null) => (id === null ? null : Number(id));

interface ClaimRow {
  endpointsDue: number;
  id: string;
  attempt: number;
  step: number;
  endpointId: string;
  url: string;
  destination: string;
  owner: string;
  ownerScopes: string[] | null;
  ownerOrganizationId: string | null;
  secret: string;
  previousSecret: string | null;
  eventNumber: string;
  type: string;
  dataJson: string;
  eventOwner: string | null;
  eventOrganizationId: string | null;
  occurredAt: string;
}

/**
 * Outcomes recorded in one transaction at most: as many as an instance holds attempts by default
 * (WEBHOOK_CONCURRENCY).
 */
const COMPLETIONS_TOGETHER = 64;

/** An outcome waiting to be recorded, and its caller's promise. */
interface Completion {
  readonly delivery: ClaimedDelivery;
  readonly values: unknown[];
  readonly recorded: () => void;
  readonly failed: (error: unknown) => void;
}

@Injectable()
export class SqlDeliveryQueue extends DeliveryQueue {
  /**
   * A transaction recording outcomes is under way: one at a time per instance (docs/adr/0056). It
   * holds one connection of the pool that requests share, however many outcomes wait, and it
   * leaves PostgreSQL's other backends to the requests: two at a time drained faster but slowed
   * the reads more.
   */
  private recording = false;
  /** Outcomes that came while one was recorded: the next transaction records them together. */
  private readonly waiting: Completion[] = [];

  constructor(
    private readonly sql: SqlStatements,
    private readonly leaseSeconds: number,
  ) {
    super();
  }

  async claim(request: ClaimRequest): Promise<Claim> {
    if ((await this.sql.query(ANY_DUE, [])).length === 0)
      return { deliveries: [], endpointsDue: 0 };
    const { heldByOwner, heldByDestination } = request;
    const rows = await this.sql.query<ClaimRow>(CLAIM, [
      request.limit,
      request.perEndpoint,
      request.busy,
      this.leaseSeconds,
      [...heldByOwner.keys()],
      [...heldByOwner.values()],
      [...heldByDestination.keys()],
      [...heldByDestination.values()],
      request.concurrency,
    ]);
    const deliveries = rows.map((row): ClaimedDelivery => {
      return {
        id: Number(row.id),
        attempt: row.attempt,
        step: row.step,
        endpoint: {
          id: Number(row.endpointId),
          url: row.url,
          destination: row.destination,
          owner: row.owner,
          ownerScopes: row.ownerScopes ?? [],
          ownerOrganizationId: numberOrNull(row.ownerOrganizationId),
          sealedSecrets: row.previousSecret ? [row.secret, row.previousSecret] : [row.secret],
        },
        event: {
          id: eventIdOf(numberOfUuid(row.eventNumber)),
          type: row.type,
          occurredAt: row.occurredAt,
          dataJson: row.dataJson,
          owner: row.eventOwner,
          organizationId: numberOrNull(row.eventOrganizationId),
        },
      };
    });
    // Read when something was claimed; a claim that took nothing leaves the worker idle anyway.
    return { deliveries, endpointsDue: rows[0]?.endpointsDue ?? 0 };
  }

  /**
   * Recorded at once when no other outcome is being recorded; else it waits, and the next
   * transaction records every outcome waiting, up to COMPLETIONS_TOGETHER, in two round trips: a
   * burst of timeouts is one transaction, not one each, with one commit to flush, and a quiet
   * key's outcome waits behind one transaction, not behind the burst (docs/adr/0056). Each
   * outcome is still its own statement, run in the order they came: what one does to its
   * endpoint's failing streak, the next sees.
   */
  complete(
    delivery: ClaimedDelivery,
    result: AttemptResult,
    decision: AttemptDecision,
    attemptedAt: Date,
    disableAfterHours: number,
  ): Promise<void> {
    const values = [
      delivery.id,
      delivery.attempt,
      decision.outcome,
      decision.retryInSeconds,
      result.responseStatus,
      result.error,
      Math.round(result.durationMs),
      decision.gone,
      attemptedAt,
      disableAfterHours,
    ];
    return new Promise((recorded, failed) => {
      this.waiting.push({ delivery, values, recorded, failed });
      this.recordWaiting();
    });
  }

  private recordWaiting(): void {
    if (this.recording || this.waiting.length === 0) return;
    this.recording = true;
    const batch = this.waiting.splice(0, COMPLETIONS_TOGETHER);
    void this.recordBatch(batch).finally(() => {
      this.recording = false;
      this.recordWaiting();
    });
  }

  /** A batch that fails is recorded again one outcome at a time: one bad value fails only its own. */
  private async recordBatch(batch: Completion[]): Promise<void> {
    try {
      await this.record(batch);
      for (const completion of batch) completion.recorded();
    } catch (error) {
      if (batch.length === 1) return batch[0].failed(error);
      for (const completion of batch) {
        await this.record([completion]).then(completion.recorded, completion.failed);
      }
    }
  }

  /**
   * Two round trips: BEGIN with the endpoints' locks, then the outcomes with COMMIT (an endpoint
   * deleted meanwhile has no delivery left: its outcome finds none and changes nothing).
   */
  private record(batch: Completion[]): Promise<void> {
    const endpoints = [...new Set(batch.map(({ delivery }) => delivery.endpoint.id))];
    return this.sql.transaction(async () => {
      await this.sql.query(LOCK_ENDPOINTS, [endpoints.sort((a, b) => a - b)]);
      for (const { values } of batch) await this.sql.queryAtCommit(COMPLETE, values);
    });
  }

  async drop(delivery: ClaimedDelivery) {
    await this.sql.query(DROP, [delivery.id, delivery.attempt]);
  }
}
