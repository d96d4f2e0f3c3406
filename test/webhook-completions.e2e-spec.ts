import { SqlStatements } from '../src/platform/database/sql-statements';
import { ClaimedDelivery, DeliveryQueue } from '../src/webhooks/application/webhook-delivery';
import { AttemptDecision, AttemptResult } from '../src/webhooks/domain/delivery';
import { LOCK_ENDPOINTS } from '../src/webhooks/infrastructure/sql-delivery-queue';
import { FreshDatabase, freshDatabase } from './support/fresh-database';
import { startTestApp, TestApp } from './support/test-app';

/**
 * Outcomes that come while another is recorded are recorded together, in the instance's next
 * transaction (docs/adr/0056): a burst of timeouts costs one commit, not one each. Each is still
 * recorded as it would be alone, in the order it came, and one that cannot be recorded fails
 * alone. A database of its own: the worker and its claims stay out.
 */
jest.setTimeout(60_000);

const SUCCEEDED: AttemptResult = { responseStatus: 200, error: null, durationMs: 12 };
const DONE: AttemptDecision = { outcome: 'succeeded', retryInSeconds: null, gone: false };
const TIMED_OUT: AttemptResult = { responseStatus: null, error: 'timeout', durationMs: 10_000 };
const RETRY: AttemptDecision = { outcome: 'failed', retryInSeconds: 60, gone: false };
const GONE: AttemptResult = { responseStatus: 410, error: null, durationMs: 8 };
const ENDED: AttemptDecision = { outcome: 'failed', retryInSeconds: null, gone: true };
const DISABLE_AFTER_HOURS = 120;

describe('webhook outcomes recorded together', () => {
  let database: FreshDatabase;
  let t: TestApp;
  let queue: DeliveryQueue;
  let statements: jest.SpyInstance;
  /** The transactions recording outcomes: each opens with its endpoints' locks. */
  const transactions = () =>
    statements.mock.calls.filter(([statement]) => statement === LOCK_ENDPOINTS).length;

  beforeAll(async () => {
    database = await freshDatabase();
    t = await startTestApp({ DATABASE_URL: database.url, WEBHOOK_POLL_INTERVAL_MS: '60000' });
    queue = t.app.get(DeliveryQueue);
    statements = jest.spyOn(t.app.get(SqlStatements), 'query');
  });
  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });
  beforeEach(() => statements.mockClear());

  /** `count` deliveries to each of `endpoints` new endpoints, as claims leave them: leased. */
  async function leased(endpoints: number, count: number): Promise<ClaimedDelivery[][]> {
    const [{ id: event }] = await t.dataSource.query(
      `INSERT INTO events (type, readers, read_scope, organization_id, data)
       VALUES ('pet.updated', 'everyone', 'pets:read', 1, '{}') RETURNING id`,
    );
    const all: ClaimedDelivery[][] = [];
    for (let e = 0; e < endpoints; e++) {
      const [{ id: endpoint }] = await t.dataSource.query(
        `INSERT INTO webhook_endpoints (owner_key_id, url, events, secret)
         VALUES (1, 'https://receiver.example/' || $1, '{*}', 'whsec_test') RETURNING id`,
        [e],
      );
      // One event, many deliveries of it: only their ids and attempts matter to a completion.
      const rows: { id: string }[] = await t.dataSource.query(
        `INSERT INTO webhook_deliveries (event_id, endpoint_id, attempts, step, next_attempt_at)
         SELECT $1, $2, 1, 1, now() + interval '1 day' FROM generate_series(1, $3)
         RETURNING id`,
        [event, endpoint, count],
      );
      all.push(
        rows.map(
          ({ id }) =>
            ({ id: Number(id), attempt: 1, endpoint: { id: Number(endpoint) } }) as ClaimedDelivery,
        ),
      );
    }
    return all;
  }

  const at = (second: number) => new Date(Date.UTC(2026, 10, 29, 12, 0, second));

  it('records a burst in one transaction, each outcome as alone and in the order it came', async () => {
    const [streakEnds, streakStarts, gone, longFailing, ...quiet] = await leased(8, 6);
    await t.dataSource.query(
      `UPDATE webhook_endpoints SET failing_since = now() - interval '200 hours' WHERE id = $1`,
      [longFailing[0].endpoint.id],
    );
    const outcomes: [ClaimedDelivery, AttemptResult, AttemptDecision, Date][] = [
      // The first is recorded at once; the rest come while it is.
      [quiet[0][0], SUCCEEDED, DONE, at(0)],
      [quiet[1][0], SUCCEEDED, DONE, at(0)],
      [streakEnds[0], TIMED_OUT, RETRY, at(1)],
      [streakStarts[0], SUCCEEDED, DONE, at(1)],
      [gone[0], GONE, ENDED, at(1)],
      [longFailing[0], TIMED_OUT, RETRY, at(1)],
      [streakEnds[1], TIMED_OUT, RETRY, at(2)],
      [streakStarts[1], TIMED_OUT, RETRY, at(2)],
      // The endpoints disabled just before are left as they are.
      [gone[1], SUCCEEDED, DONE, at(2)],
      [longFailing[1], SUCCEEDED, DONE, at(2)],
      [streakEnds[2], SUCCEEDED, DONE, at(3)],
      [streakStarts[2], TIMED_OUT, RETRY, at(3)],
    ];
    for (const endpoint of quiet) {
      for (const delivery of endpoint.slice(1)) outcomes.push([delivery, SUCCEEDED, DONE, at(4)]);
    }
    await Promise.all(
      outcomes.map(([delivery, result, decision, when]) =>
        queue.complete(delivery, result, decision, when, DISABLE_AFTER_HOURS),
      ),
    );

    // One for the first, then one for the 11 + 4 × 5 that waited.
    expect(transactions()).toBe(2);
    const states = await t.dataSource.query(
      `SELECT d.id::int, d.state, (d.next_attempt_at > now() + interval '50 seconds'
              AND d.next_attempt_at < now() + interval '70 seconds') AS "inAMinute",
              count(a.*)::int AS "attempts"
         FROM webhook_deliveries d LEFT JOIN webhook_attempts a ON a.delivery_id = d.id
        WHERE d.id = ANY ($1::bigint[]) GROUP BY d.id`,
      [outcomes.map(([delivery]) => delivery.id)],
    );
    expect(states).toHaveLength(outcomes.length);
    for (const [delivery, , decision] of outcomes) {
      const state = decision === DONE ? 'succeeded' : decision === RETRY ? 'pending' : 'failed';
      expect(states).toContainEqual({
        id: delivery.id,
        state,
        inAMinute: decision === RETRY,
        attempts: 1,
      });
    }
    const endpoints = await t.dataSource.query(
      `SELECT enabled, disabled_reason AS "reason", failing_since AS "failingSince"
         FROM webhook_endpoints WHERE id = ANY ($1::bigint[]) ORDER BY id`,
      [[streakEnds, streakStarts, gone, longFailing, quiet[0]].map(([d]) => d.endpoint.id)],
    );
    expect(endpoints).toEqual([
      // Failing from its first timeout, then a success ended the streak.
      { enabled: true, reason: null, failingSince: null },
      // A success, then its streak started at the first timeout after it.
      { enabled: true, reason: null, failingSince: at(2) },
      // 410: disabled at once, and the success after it changed nothing.
      { enabled: false, reason: 'gone', failingSince: at(1) },
      // Failing for 200 hours (more than 120): disabled at its next failure, and stays so.
      { enabled: false, reason: 'failing', failingSince: expect.any(Date) },
      { enabled: true, reason: null, failingSince: null },
    ]);
  });

  it('records again one at a time a batch that failed: only the outcome that cannot be kept fails', async () => {
    const [[first, second, ...rest]] = await leased(1, 5);
    const complete = (delivery: ClaimedDelivery, result = SUCCEEDED) =>
      queue.complete(delivery, result, DONE, at(0), DISABLE_AFTER_HOURS);
    // A duration past a 32-bit integer: PostgreSQL refuses it (22003).
    const tooLong = { ...SUCCEEDED, durationMs: 2 ** 32 };
    const outcomes = await Promise.allSettled([
      complete(first),
      complete(second),
      complete(rest[0]),
      complete(rest[1], tooLong),
      complete(rest[2]),
    ]);

    expect(outcomes.map(({ status }) => status)).toEqual([
      'fulfilled',
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    expect(outcomes[3]).toMatchObject({ reason: { code: '22003' } });
    // The first, the batch of four that failed, and its four again one by one.
    expect(transactions()).toBe(6);
    const states = await t.dataSource.query(
      `SELECT d.state, count(a.*)::int AS "attempts"
         FROM webhook_deliveries d LEFT JOIN webhook_attempts a ON a.delivery_id = d.id
        WHERE d.id = ANY ($1::bigint[]) GROUP BY d.id ORDER BY d.id`,
      [[first, second, ...rest].map(({ id }) => id)],
    );
    expect(states).toEqual([
      { state: 'succeeded', attempts: 1 },
      { state: 'succeeded', attempts: 1 },
      { state: 'succeeded', attempts: 1 },
      { state: 'pending', attempts: 0 },
      { state: 'succeeded', attempts: 1 },
    ]);
  });
});
