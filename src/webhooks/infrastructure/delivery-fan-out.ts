import { Injectable, Logger } from '@nestjs/common';
import { BackgroundPacing } from '../../platform/background/background-pacing';
import { PolledTask } from '../../platform/background/polled-task';
import { AppConfig } from '../../platform/config/app-config';
import { SqlStatement, SqlStatements } from '../../platform/database/sql-statements';

/** Events fanned out per statement, at most: fewer after a failure (a statement timeout). */
const MAX_BATCH = 100;
/**
 * Deliveries made per statement, at most: about a tenth of a second of one backend (120 ms
 * measured, matching an event to 10,000 endpoints) and some half a megabyte of WAL by estimate,
 * so that a writer's commit never waits behind a long one (docs/adr/0056).
 */
export const MAX_DELIVERIES = 1_000;

/**
 * The next deliveries after the last one made, and the progress moved past them: one statement,
 * so the deliveries and the progress commit together. The progress is an event and, when the
 * event was fanned out partly, the last endpoint it was fanned out to: the next numbered events
 * are taken ($1 at most, the one fanned out partly first) and each is matched with the endpoints
 * that get it, in (event, endpoint) order, $2 at most. When $2 were made, the progress stops
 * after the last; else it moves past the batch. The progress row is taken FOR UPDATE SKIP
 * LOCKED: one instance at a time fans out, the others find nothing to take. Who gets an event is
 * the v1.3 rule (FanOutToOrganizationStaff1795230500000, whose trigger this replaces): an
 * endpoint subscribed to its type (or `*`), enabled, created no later than the event (by the
 * database's clock at the start of each one's transaction: as when the writer's transaction made
 * the deliveries, an endpoint created after a change does not get it, however late the fan-out
 * comes to it), whose key is live and may read it as the feed's visibility rule says; a ping goes
 * to its one endpoint. It is checked again when each attempt is sent. The batch starts at the
 * progress as a bound of the events' index (a value the statement knows before it reads an
 * event): as a join condition, an OR the index cannot take, every statement read the whole log
 * from its first event, 0.2 s at 70,000 events, and more as it grows.
 */
export const FAN_OUT: SqlStatement = {
  name: 'webhook_deliveries_fan_out',
  text: `WITH "progress" AS (
           SELECT after_event, after_endpoint FROM webhook_fan_out FOR UPDATE SKIP LOCKED
         ), "batch" AS (
           SELECT e.id, e.public_id, e.type, e.readers, e.read_scope, e.owner_scope, e.staff_scope,
                  e.owner_key_id, e.organization_id, e.data, e.occurred_at
             FROM "progress" p JOIN events e
               ON e.public_id >= (SELECT after_event FROM "progress")
              AND (e.public_id > p.after_event OR p.after_endpoint IS NOT NULL)
            ORDER BY e.public_id LIMIT $1
         ), "due" AS (
           SELECT e.id AS event_id, e.public_id, w.id AS endpoint_id
             FROM "batch" e
             CROSS JOIN "progress" p
             JOIN webhook_endpoints w ON
                  CASE e.readers
                    WHEN 'endpoint' THEN w.id = (e.data->>'endpointId')::bigint
                                     AND w.owner_key_id = e.owner_key_id
                    ELSE w.enabled AND (w.events && ARRAY[e.type, '*']::varchar(32)[])
                         AND w.created_at <= e.occurred_at
                  END
             JOIN api_keys k ON k.id = w.owner_key_id AND k.revoked_at IS NULL
                            AND (k.expires_at IS NULL OR k.expires_at > now())
            WHERE (e.public_id > p.after_event OR w.id > p.after_endpoint)
              AND (e.readers = 'endpoint'
               OR (e.readers = 'everyone' AND e.read_scope = ANY (k.scopes))
               OR (e.readers = 'owned'
                   AND ((e.staff_scope = ANY (k.scopes) AND k.organization_id = e.organization_id)
                     OR (e.owner_key_id = w.owner_key_id AND e.owner_scope = ANY (k.scopes)))))
            ORDER BY e.public_id, w.id
            LIMIT $2
              FOR KEY SHARE OF w
         ), "delivered" AS (
           INSERT INTO webhook_deliveries (event_id, endpoint_id)
           SELECT event_id, endpoint_id FROM "due" ORDER BY public_id, endpoint_id
           RETURNING 1
         ), "last" AS (
           SELECT public_id, endpoint_id FROM "due" ORDER BY public_id DESC, endpoint_id DESC LIMIT 1
         ), "full" AS (
           SELECT (SELECT count(*) FROM "due") = $2 AS "full"
         ), "moved" AS (
           UPDATE webhook_fan_out
              SET after_event = CASE WHEN (SELECT "full" FROM "full")
                                  THEN (SELECT public_id FROM "last")
                                  ELSE (SELECT public_id FROM "batch" ORDER BY public_id DESC LIMIT 1)
                                END,
                  after_endpoint = CASE WHEN (SELECT "full" FROM "full")
                                     THEN (SELECT endpoint_id FROM "last")
                                   END
            WHERE EXISTS (SELECT 1 FROM "batch")
         )
         SELECT (SELECT count(*) FROM "batch")::int AS "events",
                (SELECT count(DISTINCT public_id) FROM "due")::int AS "reached",
                (SELECT count(*) FROM "delivered")::int AS "deliveries",
                EXISTS (SELECT 1 FROM webhook_fan_out) AS "started"`,
};
/**
 * The progress row, when it is gone: emptied with the events (as the tests' reset does), the
 * fan-out starts again from the first event.
 */
const START: SqlStatement = {
  name: 'webhook_fan_out_start',
  text: `INSERT INTO webhook_fan_out (after_event) VALUES ('00000000-0000-0000-0000-000000000000')
         ON CONFLICT DO NOTHING`,
};

/**
 * Turns the event log into deliveries (docs/adr/0048), outside every writer's transaction: a
 * write costs the same whatever endpoints other keys have, and the work of fanning an event out
 * to many endpoints falls here, in the background, in short statements, paced (docs/adr/0056).
 * Every instance runs it, every WEBHOOK_POLL_INTERVAL_MS while there is nothing to do.
 */
@Injectable()
export class DeliveryFanOut extends PolledTask {
  private batch = MAX_BATCH;

  constructor(
    private readonly sql: SqlStatements,
    private readonly config: AppConfig,
    pacing: BackgroundPacing,
  ) {
    super(new Logger('Webhooks'), 'fan events out to webhook endpoints', pacing);
  }

  /**
   * Makes the next deliveries, MAX_DELIVERIES at most; returns how many events it took (the
   * last, or the only one, perhaps partly).
   */
  async fanOut(): Promise<number> {
    return (await this.nextStatement()).events;
  }

  private async nextStatement(): Promise<{ events: number; full: boolean }> {
    try {
      const [{ events, reached, deliveries, started }] = await this.sql.query<{
        events: number;
        reached: number;
        deliveries: number;
        started: boolean;
      }>(FAN_OUT, [this.batch, MAX_DELIVERIES]);
      if (!started) {
        await this.sql.query(START, []);
        return this.nextStatement();
      }
      // Full: the next statement takes as many events as this one reached (the deliveries of
      // the events after those were matched for nothing); else, more events each time.
      const full = deliveries === MAX_DELIVERIES;
      if (full) this.batch = Math.max(1, reached);
      else if (events === this.batch) this.batch = Math.min(MAX_BATCH, this.batch * 2);
      return { events, full };
    } catch (error) {
      // Too many deliveries for one statement (many endpoints each): fewer events next time.
      this.batch = Math.max(1, Math.floor(this.batch / 2));
      throw error;
    }
  }

  /** A full statement is heavy: an event to very many endpoints (docs/adr/0056). */
  protected async step(): Promise<boolean | 'heavy'> {
    const { events, full } = await this.nextStatement();
    return full ? 'heavy' : events > 0;
  }

  protected intervalMs(): number {
    return this.config.webhooks.pollIntervalMs;
  }
}
