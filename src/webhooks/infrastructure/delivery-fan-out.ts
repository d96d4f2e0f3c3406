import { Injectable, Logger } from '@nestjs/common';
import { PolledTask } from '../../platform/background/polled-task';
import { AppConfig } from '../../platform/config/app-config';
import { SqlStatement, SqlStatements } from '../../platform/database/sql-statements';

/** Events fanned out per statement, at most: fewer after a failure (a statement timeout). */
const MAX_BATCH = 100;

/**
 * The next numbered events after the last one fanned out, each to the endpoints that get it, and
 * the progress moved past them: one statement, so the deliveries and the progress commit together.
 * The progress row is taken FOR UPDATE SKIP LOCKED: one instance at a time fans out, the others
 * find nothing to take. Who gets an event is the v1.3 rule (FanOutToOrganizationStaff1795230500000,
 * whose trigger this replaces): an endpoint subscribed to its type (or `*`), enabled, whose key is
 * live and may read it as the feed's visibility rule says; a ping goes to its one endpoint. It is
 * checked again when each attempt is sent.
 */
const FAN_OUT: SqlStatement = {
  name: 'webhook_deliveries_fan_out',
  text: `WITH "progress" AS (
           SELECT after_event FROM webhook_fan_out FOR UPDATE SKIP LOCKED
         ), "batch" AS (
           SELECT e.id, e.public_id, e.type, e.readers, e.read_scope, e.owner_scope, e.staff_scope,
                  e.owner_key_id, e.organization_id, e.data
             FROM "progress" p JOIN events e ON e.public_id > p.after_event
            ORDER BY e.public_id LIMIT $1
         ), "delivered" AS (
           INSERT INTO webhook_deliveries (event_id, endpoint_id)
           SELECT e.id, w.id
             FROM "batch" e
             JOIN webhook_endpoints w ON
                  CASE e.readers
                    WHEN 'endpoint' THEN w.id = (e.data->>'endpointId')::bigint
                                     AND w.owner_key_id = e.owner_key_id
                    ELSE w.enabled AND (w.events && ARRAY[e.type, '*']::varchar(32)[])
                  END
             JOIN api_keys k ON k.id = w.owner_key_id AND k.revoked_at IS NULL
                            AND (k.expires_at IS NULL OR k.expires_at > now())
            WHERE e.readers = 'endpoint'
               OR (e.readers = 'everyone' AND e.read_scope = ANY (k.scopes))
               OR (e.readers = 'owned'
                   AND ((e.staff_scope = ANY (k.scopes) AND k.organization_id = e.organization_id)
                     OR (e.owner_key_id = w.owner_key_id AND e.owner_scope = ANY (k.scopes))))
            ORDER BY e.public_id, w.id
              FOR KEY SHARE OF w
           RETURNING 1
         ), "moved" AS (
           UPDATE webhook_fan_out
              SET after_event = (SELECT public_id FROM "batch" ORDER BY public_id DESC LIMIT 1)
            WHERE EXISTS (SELECT 1 FROM "batch")
         )
         SELECT (SELECT count(*) FROM "batch")::int AS "events",
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
 * to many endpoints falls here, in the background. Every instance runs it, every
 * WEBHOOK_POLL_INTERVAL_MS while there is nothing to do, at once again while there is.
 */
@Injectable()
export class DeliveryFanOut extends PolledTask {
  private batch = MAX_BATCH;

  constructor(
    private readonly sql: SqlStatements,
    private readonly config: AppConfig,
  ) {
    super(new Logger('Webhooks'), 'fan events out to webhook endpoints');
  }

  /** Fans out the next batch of events; returns how many events it took. */
  async fanOut(): Promise<number> {
    try {
      const [{ events, started }] = await this.sql.query<{ events: number; started: boolean }>(
        FAN_OUT,
        [this.batch],
      );
      if (!started) {
        await this.sql.query(START, []);
        return this.fanOut();
      }
      if (events === this.batch) this.batch = Math.min(MAX_BATCH, this.batch * 2);
      return events;
    } catch (error) {
      // Too many deliveries for one statement (many endpoints each): fewer events next time.
      this.batch = Math.max(1, Math.floor(this.batch / 2));
      throw error;
    }
  }

  protected async step(): Promise<boolean> {
    const started = performance.now();
    const events = await this.fanOut();
    // Background work yields to requests: after a batch, as long a pause as it took, so that
    // fanning out to many endpoints holds at most half of one database backend's time.
    if (events > 0) await this.pause(performance.now() - started);
    return events > 0;
  }

  protected intervalMs(): number {
    return this.config.webhooks.pollIntervalMs;
  }
}
