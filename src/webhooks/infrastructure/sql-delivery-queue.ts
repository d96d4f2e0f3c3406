import { Injectable } from '@nestjs/common';
import { eventIdOf, numberOfUuid } from '../../common/events/event-id';
import { SqlStatement, SqlStatements } from '../../platform/database/sql-statements';
import { AttemptDecision, AttemptResult } from '../domain/delivery';
import { EndpointId } from '../domain/webhook-endpoint';
import { ClaimedDelivery, DeliveryQueue } from '../application/webhook-delivery';

/**
 * Claims due deliveries (docs/adr/0031): endpoints in random order, so that none is always served
 * last, and of each at most $2 of its due deliveries, skipping rows another instance holds. A
 * claim is a lease: `next_attempt_at` moves $4 seconds ahead, so a delivery whose instance died
 * mid-attempt is due again, for another, when the lease ends. `attempts` counts the claim and
 * fences its completion: a completion after a takeover changes nothing.
 */
const CLAIM: SqlStatement = {
  name: 'webhook_deliveries_claim',
  text: `WITH "claimed" AS (
           SELECT d.id FROM (
             SELECT id FROM webhook_endpoints
              WHERE enabled AND NOT (id = ANY ($3::bigint[])) ORDER BY random()
           ) w
           CROSS JOIN LATERAL (
             SELECT id FROM webhook_deliveries
              WHERE endpoint_id = w.id AND state = 'pending' AND next_attempt_at <= now()
              ORDER BY next_attempt_at LIMIT $2 FOR UPDATE SKIP LOCKED
           ) d
           LIMIT $1
         ), "leased" AS (
           UPDATE webhook_deliveries d
              SET attempts = d.attempts + 1, step = d.step + 1,
                  next_attempt_at = now() + make_interval(secs => $4)
             FROM "claimed" WHERE d.id = "claimed".id
           RETURNING d.id, d.attempts, d.step, d.endpoint_id, d.event_id
         )
         SELECT l.id, l.attempts AS "attempt", l.step, w.id AS "endpointId", w.url,
                w.owner_key_id AS "owner",
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
 * it is disabled when it answered 410 ($8) or has failed everything for $10 hours.
 */
const COMPLETE: SqlStatement = {
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
 * The endpoint first, as every transaction that changes both takes them (docs/adr/0046): its
 * deletion locks it, then its deliveries (ON DELETE CASCADE); a completion that locked the
 * delivery first and the endpoint second deadlocked with it.
 */
const LOCK_ENDPOINT: SqlStatement = {
  name: 'webhook_deliveries_lock_endpoint',
  text: 'SELECT 1 FROM webhook_endpoints WHERE id = $1 FOR NO KEY UPDATE',
};

const numberOrNull = (id: string | null) => (id === null ? null : Number(id));

interface ClaimRow {
  id: string;
  attempt: number;
  step: number;
  endpointId: string;
  url: string;
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

@Injectable()
export class SqlDeliveryQueue extends DeliveryQueue {
  constructor(
    private readonly sql: SqlStatements,
    private readonly leaseSeconds: number,
  ) {
    super();
  }

  async claim(limit: number, perEndpoint: number, busy: readonly EndpointId[]) {
    if ((await this.sql.query(ANY_DUE, [])).length === 0) return [];
    const rows = await this.sql.query<ClaimRow>(CLAIM, [
      limit,
      perEndpoint,
      busy,
      this.leaseSeconds,
    ]);
    return rows.map((row): ClaimedDelivery => {
      return {
        id: Number(row.id),
        attempt: row.attempt,
        step: row.step,
        endpoint: {
          id: Number(row.endpointId),
          url: row.url,
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
  }

  async complete(
    delivery: ClaimedDelivery,
    result: AttemptResult,
    decision: AttemptDecision,
    attemptedAt: Date,
    disableAfterHours: number,
  ) {
    // Two round trips: BEGIN with the lock, then the completion with COMMIT (with no endpoint
    // left, the completion finds no delivery and changes nothing).
    await this.sql.transaction(async () => {
      await this.sql.query(LOCK_ENDPOINT, [delivery.endpoint.id]);
      await this.sql.queryAtCommit(COMPLETE, [
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
      ]);
    });
  }

  async drop(delivery: ClaimedDelivery) {
    await this.sql.query(DROP, [delivery.id, delivery.attempt]);
  }
}
