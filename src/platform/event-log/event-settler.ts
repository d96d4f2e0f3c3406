import { Injectable, Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { nextEventNumbers, numberOfUuid, uuidOf } from '../../common/events/event-id';
import { BackgroundPacing } from '../background/background-pacing';
import { PolledTask } from '../background/polled-task';
import { AppConfig } from '../config/app-config';
import { SqlStatement, SqlStatements } from '../database/sql-statements';

/** Events numbered per transaction: short ones, so that writers and readers never wait on it. */
const BATCH = 1_000;

/**
 * The oldest transaction under way that may still commit an event here: the oldest of the
 * snapshot's transactions under way, leaving out those of backends connected to another
 * database, which can write nothing to this one; when there is none, the first transaction the
 * snapshot does not see. The snapshot's own xmin counts every database of the server, so a long
 * transaction anywhere held back every event here (a bulk load of another database on the server
 * stalled webhook deliveries by seconds). A transaction is left out only when a backend of another
 * database still shows it: one that ended meanwhile, or a prepared one, still counts, which only
 * waits longer.
 */
const HORIZON = `(SELECT coalesce(
                   (SELECT min(x) FROM pg_snapshot_xip(s) AS x
                     WHERE x::xid NOT IN (
                       SELECT backend_xid FROM pg_stat_activity
                        WHERE backend_xid IS NOT NULL AND datid <> (
                          SELECT oid FROM pg_database WHERE datname = current_database()))),
                   pg_snapshot_xmax(s))
                  FROM pg_current_snapshot() AS s)`;

/**
 * Settled: recorded by a transaction older than every transaction of this database still under
 * way, so committed (or gone), and nothing can commit before it any more (docs/adr/0030).
 */
const SETTLED = `public_id IS NULL AND xid < ${HORIZON}`;

const ANY_TO_SETTLE: SqlStatement = {
  name: 'events_any_to_settle',
  text: `SELECT 1 FROM events WHERE ${SETTLED} LIMIT 1`,
};
/** One instance at a time numbers events; the others go on at once. */
const TRY_LOCK: SqlStatement = {
  name: 'events_settle_lock',
  text: 'SELECT pg_try_advisory_xact_lock(20480, 1) AS "locked"',
};
const TO_SETTLE: SqlStatement = {
  name: 'events_to_settle',
  text: `SELECT id FROM events WHERE ${SETTLED} ORDER BY xid, id LIMIT $1`,
};
const LAST_NUMBER: SqlStatement = {
  name: 'events_last_number',
  text: `SELECT public_id::text AS "last" FROM events WHERE public_id IS NOT NULL
         ORDER BY public_id DESC LIMIT 1`,
};
const NUMBER: SqlStatement = {
  name: 'events_number',
  text: `UPDATE events e SET public_id = given.public_id
           FROM unnest($1::bigint[], $2::uuid[]) AS given(id, public_id)
          WHERE e.id = given.id`,
};

const randomBits = (bits: bigint) => BigInt(`0x${randomBytes(Number(bits) / 8).toString('hex')}`);

/**
 * Gives each recorded event its number, the id the API shows (docs/adr/0048), once it is
 * settled, in the feed's order: the feed and the webhooks' fan-out read only numbered events, in
 * number order, so neither sees an event appear before one already read. Every instance runs it,
 * every EVENT_SETTLE_INTERVAL_MS while there is nothing to do; one at a time numbers (an advisory
 * lock), so the numbers ascend in the order they commit.
 */
@Injectable()
export class EventSettler extends PolledTask {
  constructor(
    private readonly sql: SqlStatements,
    private readonly config: AppConfig,
    pacing: BackgroundPacing,
  ) {
    super(new Logger('Events'), 'settle events', pacing);
  }

  /** Numbers the settled events not numbered yet, a batch; returns how many it numbered. */
  async settle(): Promise<number> {
    if ((await this.sql.query(ANY_TO_SETTLE, [])).length === 0) return 0;
    return this.sql.transaction(async () => {
      const [{ locked }] = await this.sql.query<{ locked: boolean }>(TRY_LOCK, []);
      if (!locked) return 0;
      const events = await this.sql.query<{ id: string }>(TO_SETTLE, [BATCH]);
      if (events.length === 0) return 0;
      const [previous] = await this.sql.query<{ last: string }>(LAST_NUMBER, []);
      const numbers = nextEventNumbers(
        previous ? numberOfUuid(previous.last) : null,
        Date.now(),
        events.length,
        randomBits,
      );
      await this.sql.query(NUMBER, [events.map(({ id }) => id), numbers.map(uuidOf)]);
      return events.length;
    });
  }

  protected async step(): Promise<boolean> {
    return (await this.settle()) === BATCH;
  }

  protected intervalMs(): number {
    return this.config.events.settleIntervalMs;
  }
}
