import { Injectable } from '@nestjs/common';
import { eventIdOf, numberOfUuid } from '../../common/events/event-id';
import { SqlStatement, SqlStatements } from '../../platform/database/sql-statements';
import { AttemptError, AttemptOutcome } from '../domain/delivery';
import {
  DisabledReason,
  EndpointChanges,
  EndpointId,
  Subscription,
  WebhookEndpoint,
} from '../domain/webhook-endpoint';
import { DeliveryAttempt, NewEndpoint, WebhookEndpoints } from '../application/webhook-endpoints';

const instant = (column: string) =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
// Never the secrets: they leave the table only for the delivery worker.
const COLUMNS = `id, owner_key_id AS "owner", url, events, description, enabled,
  disabled_reason AS "disabledReason", ${instant('created_at')} AS "createdAt"`;

const INSERT: SqlStatement = {
  name: 'webhook_endpoints_insert',
  text: `INSERT INTO webhook_endpoints (owner_key_id, url, events, description, secret)
         VALUES ($1, $2, $3, $4, $5) RETURNING ${COLUMNS}`,
};
const PAGE: SqlStatement = {
  name: 'webhook_endpoints_page',
  text: `SELECT ${COLUMNS} FROM webhook_endpoints WHERE owner_key_id = $1 AND id > $2
         ORDER BY id LIMIT $3`,
};
const FIND: SqlStatement = {
  name: 'webhook_endpoints_find',
  text: `SELECT ${COLUMNS} FROM webhook_endpoints WHERE owner_key_id = $1 AND id = $2`,
};
/**
 * A null parameter keeps the column; `$5` says whether a description was given (null clears it).
 * Enabling clears the reason it was disabled and how long it had failed; its pending deliveries,
 * kept while it was off, are due again from now.
 */
const UPDATE: SqlStatement = {
  name: 'webhook_endpoints_update',
  text: `WITH "endpoint" AS (
           UPDATE webhook_endpoints SET
             url = coalesce($3, url),
             events = coalesce($4, events),
             description = CASE WHEN $5 THEN $6 ELSE description END,
             enabled = coalesce($7, enabled),
             disabled_reason = CASE WHEN $7 IS NULL THEN disabled_reason END,
             failing_since = CASE WHEN $7 THEN NULL ELSE failing_since END
           WHERE owner_key_id = $1 AND id = $2
           RETURNING ${COLUMNS}
         ), "resumed" AS (
           UPDATE webhook_deliveries SET next_attempt_at = now()
             FROM "endpoint"
            WHERE $7 AND webhook_deliveries.endpoint_id = "endpoint".id
              AND webhook_deliveries.state = 'pending' AND webhook_deliveries.next_attempt_at > now()
         )
         SELECT * FROM "endpoint"`,
};
const DELETE: SqlStatement = {
  name: 'webhook_endpoints_delete',
  text: 'DELETE FROM webhook_endpoints WHERE owner_key_id = $1 AND id = $2 RETURNING id',
};
const ROTATE: SqlStatement = {
  name: 'webhook_endpoints_rotate',
  text: `UPDATE webhook_endpoints SET previous_secret = secret, secret = $3,
           previous_secret_until = now() + make_interval(secs => $4)
         WHERE owner_key_id = $1 AND id = $2 RETURNING id`,
};
const RECOVER: SqlStatement = {
  name: 'webhook_endpoints_recover',
  text: `WITH "endpoint" AS (
           SELECT id FROM webhook_endpoints WHERE owner_key_id = $1 AND id = $2
         ), "recovered" AS (
           UPDATE webhook_deliveries SET state = 'pending', step = 0, next_attempt_at = now()
             FROM "endpoint"
            WHERE webhook_deliveries.endpoint_id = "endpoint".id
              AND webhook_deliveries.state = 'failed' AND webhook_deliveries.created_at >= $3
         )
         SELECT id FROM "endpoint"`,
};
/** Newest first, keyset on the attempt's id; with the endpoint's existence (its owner's). */
const ATTEMPTS: SqlStatement = {
  name: 'webhook_endpoints_attempts',
  text: `SELECT a.id, ev.public_id::text AS "eventNumber", ev.type AS "eventType", a.attempt, a.outcome,
                a.response_status AS "responseStatus", a.error, a.duration_ms AS "durationMs",
                ${instant('a.attempted_at')} AS "attemptedAt",
                ${instant('a.next_attempt_at')} AS "nextAttemptAt"
           FROM webhook_endpoints w
           LEFT JOIN LATERAL (
             SELECT * FROM webhook_attempts
              WHERE endpoint_id = w.id AND id < coalesce($3::bigint, ${Number.MAX_SAFE_INTEGER} + 1)
                AND id > 0
              ORDER BY id DESC LIMIT $4
           ) a ON true
           LEFT JOIN webhook_deliveries d ON d.id = a.delivery_id
           LEFT JOIN events ev ON ev.id = d.event_id
          WHERE w.owner_key_id = $1 AND w.id = $2
          ORDER BY a.id DESC`,
};

interface EndpointRow {
  id: string;
  owner: string;
  url: string;
  events: string[];
  description: string | null;
  enabled: boolean;
  disabledReason: string | null;
  createdAt: string;
}

function toEndpoint(row: EndpointRow): WebhookEndpoint {
  return {
    id: Number(row.id),
    owner: row.owner,
    url: row.url,
    events: row.events as Subscription[],
    description: row.description,
    enabled: row.enabled,
    disabledReason: row.disabledReason as DisabledReason | null,
    createdAt: row.createdAt,
  };
}

interface AttemptRow {
  id: string | null;
  eventNumber: string;
  eventType: string;
  attempt: number;
  outcome: string;
  responseStatus: number | null;
  error: string | null;
  durationMs: number;
  attemptedAt: string;
  nextAttemptAt: string | null;
}

/** The keys' endpoints in PostgreSQL; every statement names the owner. */
@Injectable()
export class SqlWebhookEndpoints extends WebhookEndpoints {
  constructor(private readonly sql: SqlStatements) {
    super();
  }

  async create({ owner, url, events, description, sealedSecret }: NewEndpoint) {
    const [row] = await this.sql.query<EndpointRow>(INSERT, [
      owner,
      url,
      events,
      description,
      sealedSecret,
    ]);
    return toEndpoint(row);
  }

  async page(owner: string, after: EndpointId, limit: number) {
    return (await this.sql.query<EndpointRow>(PAGE, [owner, after, limit])).map(toEndpoint);
  }

  async find(owner: string, id: EndpointId) {
    const [row] = await this.sql.query<EndpointRow>(FIND, [owner, id]);
    return row ? toEndpoint(row) : null;
  }

  async update(owner: string, id: EndpointId, changes: EndpointChanges) {
    const [row] = await this.sql.query<EndpointRow>(UPDATE, [
      owner,
      id,
      changes.url ?? null,
      changes.events ?? null,
      changes.description !== undefined,
      changes.description ?? null,
      changes.enabled ?? null,
    ]);
    return row ? toEndpoint(row) : null;
  }

  async delete(owner: string, id: EndpointId) {
    return (await this.sql.query(DELETE, [owner, id])).length === 1;
  }

  async rotateSecret(owner: string, id: EndpointId, sealedSecret: string, overlapSeconds: number) {
    return (await this.sql.query(ROTATE, [owner, id, sealedSecret, overlapSeconds])).length === 1;
  }

  async recover(owner: string, id: EndpointId, since: Date) {
    return (await this.sql.query(RECOVER, [owner, id, since])).length === 1;
  }

  async attempts(
    owner: string,
    id: EndpointId,
    before: number | undefined,
    limit: number,
  ): Promise<DeliveryAttempt[] | null> {
    const rows = await this.sql.query<AttemptRow>(ATTEMPTS, [owner, id, before ?? null, limit]);
    if (rows.length === 0) return null;
    return rows
      .filter((row) => row.id !== null)
      .map((row) => ({
        id: Number(row.id),
        eventId: eventIdOf(numberOfUuid(row.eventNumber)),
        eventType: row.eventType,
        attempt: row.attempt,
        outcome: row.outcome as AttemptOutcome,
        responseStatus: row.responseStatus,
        error: row.error as AttemptError | null,
        durationMs: row.durationMs,
        attemptedAt: row.attemptedAt,
        nextAttemptAt: row.nextAttemptAt,
      }));
  }
}
