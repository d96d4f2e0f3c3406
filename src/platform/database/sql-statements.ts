import { Injectable } from '@nestjs/common';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Pool, PoolClient, QueryConfig, QueryResult, QueryResultRow } from 'pg';
import { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { AppConfig } from '../config/app-config';
import { isTransactionConflict } from './database-errors';
import { DatabaseEndpoint } from './database-endpoint';
import { isPreparedOn, Outcome, queryOpening, queryOpeningAll } from './opening-statement';
import { QUERY_READ_TIMEOUT } from './statement-deadlines';

/** The pool's own bound on a statement (statement-deadlines) ran out before the server answered. */
function isClientTimeout(error: unknown): boolean {
  return error instanceof Error && error.message === QUERY_READ_TIMEOUT;
}

/**
 * How often a transaction PostgreSQL ended for a deadlock or a serialization failure is run
 * (docs/adr/0046): the first time and twice more, after a short random pause (about 10, then
 * 20 ms), so that the two sides of a deadlock do not meet again in step. Past that the error is
 * the client's 503 (error-mapping.ts), never a 500.
 */
export const TRANSACTION_ATTEMPTS = 3;
const RETRY_PAUSE_MS = 10;

const pause = (attempt: number) =>
  new Promise((resolve) =>
    setTimeout(resolve, RETRY_PAUSE_MS * 2 ** (attempt - 1) * (0.5 + Math.random())),
  );

/** A statement of fixed text; its name identifies it on every connection that prepares it. */
export interface SqlStatement {
  name: string;
  text: string;
  /**
   * False: planned anew for its values every time, never prepared. For a statement whose best plan
   * depends on the values (how many rows a pattern matches), which a prepared statement's generic
   * plan would fix once for all.
   */
  prepare?: boolean;
}

/**
 * Runs the hot statements on TypeORM's own pool: no query builder and no entity hydration per
 * request (docs/adr/0008). By default they are named prepared statements, which PostgreSQL parses
 * and plans once per connection. They run unnamed when DATABASE_PREPARED_STATEMENTS is false (a
 * pooler that moves clients between server sessions) and on the embedded engine, whose
 * connections share one session: a name prepared by one connection would clash with the next.
 */
@Injectable()
export class SqlStatements {
  private readonly pool: Pool;
  private readonly named: boolean;
  /**
   * Opens a transaction in which PostgreSQL itself cancels a statement that runs too long (57014,
   * a 503), leaving the connection usable. Sent with the transaction's first statement, in its
   * round trip (OpeningStatement), and nothing left on the session: SET LOCAL ends with the
   * transaction, so a transaction-mode pooler may hand the server connection to anyone next.
   */
  private readonly opening: readonly string[];
  /** The transaction a statement runs in, if any. */
  private readonly inTransaction = new AsyncLocalStorage<OpenTransaction>();
  /**
   * Transactions under way. When none is, the storage is disabled: on Node 20 an enabled
   * AsyncLocalStorage installs promise hooks that make every await of every request about twice
   * as slow (0.3 µs more each), reads included, which never need it. Node 24 and later keep the
   * context without hooks; disabling costs nothing there either.
   */
  private open = 0;
  /** Transactions run again after a deadlock or a serialization failure, since the start. */
  retried = 0;

  constructor(dataSource: DataSource, config: AppConfig, endpoint: DatabaseEndpoint) {
    this.pool = (dataSource.driver as PostgresDriver).master as Pool;
    this.named = config.database.preparedStatements && !endpoint.isEmbedded;
    this.opening = ['BEGIN', `SET LOCAL statement_timeout = ${config.database.statementTimeoutMs}`];
  }

  async query<T extends QueryResultRow>(statement: SqlStatement, values: unknown[]): Promise<T[]> {
    const config = this.config(statement, values);
    const open = this.inTransaction.getStore();
    if (!open) return (await this.autocommit<T>(config)).rows;
    if (open.gathering) {
      const gathered = open.gathering;
      return (
        await new Promise<QueryResult<T>>((resolve, reject) => {
          gathered.push({ config, settle: settler(resolve, reject) });
        })
      ).rows;
    }
    const ahead = open.ahead;
    open.ahead = undefined;
    const answered = send<T>(open, config);
    return (await (ahead ? inOrder([ahead], answered) : answered)).rows;
  }

  /**
   * Runs a statement whose rows nobody reads: inside a transaction, just before its COMMIT and in
   * the same round trip; outside one, at once. Its failure fails the transaction, which then
   * commits nothing.
   */
  async queryAtCommit(statement: SqlStatement, values: unknown[]): Promise<void> {
    const open = this.inTransaction.getStore();
    if (open) open.atCommit.push(this.config(statement, values));
    else await this.autocommit(this.config(statement, values));
  }

  /**
   * Runs `issue`, which issues several statements of the transaction under way at once (without
   * waiting for one's answer before the next), and sends them in one write, for one round trip:
   * under the one Sync of the statements that open the transaction when they are its first
   * (OpeningStatement). Each statement's answer is its own; a statement after a failed one fails
   * with the same error, as the transaction is aborted. Outside a transaction, `issue` runs as it
   * would without this.
   *
   * Only the statements issued before `issue` first waits are gathered: any later one is sent as
   * usual, after them. A gathered statement after the first that is not yet prepared on the
   * connection is parsed in place, unnamed (see OpeningStatement).
   */
  together<T>(issue: () => Promise<T>): Promise<T> {
    const open = this.inTransaction.getStore();
    if (!open || open.gathering) return issue();
    const gathered: Gathered[] = [];
    open.gathering = gathered;
    let issued: Promise<T>;
    try {
      issued = issue();
    } finally {
      open.gathering = undefined;
    }
    sendGathered(open, gathered);
    return issued;
  }

  /**
   * A statement outside any transaction: a transaction of its own, run again as `transaction`
   * runs one after a deadlock or a serialization failure (nothing of it was kept).
   */
  private async autocommit<T extends QueryResultRow>(config: QueryConfig): Promise<QueryResult<T>> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.pool.query<T>(config);
      } catch (error) {
        if (attempt >= TRANSACTION_ATTEMPTS || !isTransactionConflict(error)) throw error;
        this.retried += 1;
        await pause(attempt);
      }
    }
  }

  private config(statement: SqlStatement, values: unknown[]): QueryConfig {
    return this.named && statement.prepare !== false
      ? { name: statement.name, text: statement.text, values }
      : { text: statement.text, values };
  }

  /**
   * Runs `work` in one transaction: every statement it runs through this class, however deep in
   * the call, joins it (a transaction already under way is joined, not nested). Commits when
   * `work` resolves, rolls back when it throws. With `lock`, the transaction first takes that
   * transaction-scoped advisory lock: ahead of the next statement, in its round trip.
   *
   * BEGIN goes with the first statement, in its round trip: a transaction whose work runs no
   * statement sends nothing at all.
   *
   * A transaction PostgreSQL ends for a deadlock or a serialization failure (40P01, 40001) is run
   * again from the start, `work` included, up to TRANSACTION_ATTEMPTS times: `work` must do
   * nothing but through the database, or nothing that cannot be done twice. A joined transaction
   * is not retried on its own: the outermost one is, whole.
   */
  async transaction<T>(work: () => Promise<T>, lock?: AdvisoryLock): Promise<T> {
    const takeLock = lock && `SELECT pg_advisory_xact_lock(${lockKeys(lock)})`;
    const joined = this.inTransaction.getStore();
    if (joined) {
      // A transaction-scoped lock is held until the end: taken once is enough.
      if (takeLock && !joined.locks.has(takeLock)) {
        joined.locks.add(takeLock);
        sendAhead(joined, takeLock);
      }
      return work();
    }
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.attempt(work, takeLock);
      } catch (error) {
        if (attempt >= TRANSACTION_ATTEMPTS || !isTransactionConflict(error)) throw error;
        this.retried += 1;
        await pause(attempt);
      }
    }
  }

  /** One run of a transaction, on a connection of its own: committed, or rolled back. */
  private async attempt<T>(work: () => Promise<T>, takeLock: string | undefined): Promise<T> {
    const opening = takeLock ? [...this.opening, takeLock] : [...this.opening];
    const client = await this.pool.connect();
    // A connection lost between two statements fails the next (a 503), and the pool drops it on
    // release: its loss is heard from the connection's first moment (pool-client).
    let broken: Error | undefined;
    this.open += 1;
    const open: OpenTransaction = {
      client,
      opening,
      atCommit: [],
      locks: new Set(takeLock ? [takeLock] : []),
    };
    try {
      const result = await this.inTransaction.run(open, work);
      await commit(open);
      return result;
    } catch (error) {
      if (isClientTimeout(error)) {
        // The statement the client gave up on still runs: a ROLLBACK would queue behind it. The
        // connection is closed instead, which ends the transaction on the server.
        broken = error as Error;
      } else if (!open.opening) {
        // Something was sent (BEGIN went with it). A connection that cannot even roll back is
        // not given back to the pool.
        await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
      }
      throw error;
    } finally {
      client.release(broken);
      // No transaction's work is left to run: nothing can ask for the storage until run() again.
      if (--this.open === 0) this.inTransaction.disable();
    }
  }
}

/** A transaction under way: its connection, and the statements to send with its COMMIT. */
interface OpenTransaction {
  client: PoolClient;
  /** The statements that open it, until they go with its first statement. */
  opening?: string[];
  /**
   * A statement sent without waiting for its answer (a joined transaction's lock): the next one
   * goes behind it in the same round trip. Inside a transaction that is safe: if it fails, the
   * transaction is aborted and every statement after it fails too, and its error, the cause, is
   * the one thrown.
   */
  ahead?: Promise<unknown>;
  atCommit: QueryConfig[];
  /** The advisory locks it took (their statements). */
  locks: Set<string>;
  /** While `together` gathers the statements issued at once: them, to be sent in one write. */
  gathering?: Gathered[];
}

/** A statement gathered by `together`, and what settles its caller's promise. */
interface Gathered {
  config: QueryConfig;
  settle: (outcome: Outcome) => void;
}

const settler =
  <T extends QueryResultRow>(
    resolve: (result: QueryResult<T>) => void,
    reject: (error: Error) => void,
  ) =>
  (outcome: Outcome) =>
    'error' in outcome ? reject(outcome.error) : resolve(outcome.result as QueryResult<T>);

/** Settles every statement from its promise, a statement after a failure with that failure. */
function settleInOrder(sent: { statement: Gathered; answer: Promise<QueryResult> }[]): void {
  const before: Promise<unknown>[] = [];
  for (const { statement, answer } of sent) {
    inOrder([...before], answer).then(
      (result) => statement.settle({ result }),
      (error: Error) => statement.settle({ error }),
    );
    before.push(answer);
  }
}

/** Sends what `together` gathered; see there. */
function sendGathered(open: OpenTransaction, gathered: Gathered[]): void {
  if (gathered.length === 0) return;
  const { client, opening } = open;
  if (opening) {
    open.opening = undefined;
    // A named statement not prepared on this connection yet is parsed in place, unnamed, as on
    // a pooler: its Parse must not go in front of the opening (OpeningStatement).
    const statements = gathered.map(({ config }, i) =>
      i === 0 || isPreparedOn(client.connection, config)
        ? config
        : { text: config.text, values: config.values },
    );
    const answered = queryOpeningAll(client, opening, statements);
    void answered.then((outcomes) => outcomes.forEach((outcome, i) => gathered[i].settle(outcome)));
    keepFailure(
      open,
      answered.then((outcomes) => {
        for (const outcome of outcomes) if ('error' in outcome) throw outcome.error;
      }),
    );
    return;
  }
  const ahead = open.ahead;
  open.ahead = undefined;
  const answers = sendCorked(open, gathered, ahead);
  keepFailure(open, inOrder(answers.slice(0, -1), answers.at(-1)!));
}

/**
 * The gathered statements' first failure, if any, is thrown again by the transaction's next
 * statement or its commit, as a lock sent ahead is (sendAhead): a failure whose statement nobody
 * awaited (a joined transaction's lock) is never lost, and nothing runs on after it.
 */
function keepFailure(open: OpenTransaction, failure: Promise<unknown>): void {
  open.ahead = failure;
  failure.catch(() => undefined);
}

/** Sends statements of an open transaction in one write, each with its own Sync: their answers. */
function sendCorked(
  open: OpenTransaction,
  gathered: Gathered[],
  ahead?: Promise<unknown>,
): Promise<QueryResult>[] {
  const { stream } = open.client.connection;
  const sent: { statement: Gathered; answer: Promise<QueryResult> }[] = [];
  stream.cork();
  try {
    for (const statement of gathered) {
      sent.push({ statement, answer: open.client.query(statement.config) });
    }
  } finally {
    stream.uncork();
  }
  if (ahead && sent.length > 0) sent[0].answer = inOrder([ahead], sent[0].answer);
  settleInOrder(sent);
  return sent.map(({ answer }) => answer);
}

/** Sends a statement of the transaction: with the statements that open it, if it is the first. */
function send<T extends QueryResultRow>(
  open: OpenTransaction,
  statement: QueryConfig,
): Promise<QueryResult<T>> {
  const { client, opening } = open;
  if (!opening) return client.query<T>(statement);
  open.opening = undefined;
  return queryOpening(client, opening, statement) as Promise<QueryResult<T>>;
}

function sendAhead(open: OpenTransaction, text: string): void {
  if (open.opening) {
    open.opening.push(text);
    return;
  }
  if (open.gathering) {
    // In its place among the gathered statements: those after it fail with its failure.
    open.gathering.push({ config: { text }, settle: () => undefined });
    return;
  }
  const sent = open.client.query(text);
  open.ahead = open.ahead ? inOrder([open.ahead], sent) : sent;
  // Its failure is thrown by the statement behind it or by the commit, or, if the work fails
  // first, gives way to the work's own error: never an unhandled rejection meanwhile.
  open.ahead.catch(() => undefined);
}

/** Waits for every statement; throws the first failure in the order sent, or gives the last's. */
async function inOrder<T>(before: Promise<unknown>[], last: Promise<T>): Promise<T> {
  const outcomes = await Promise.allSettled([...before, last]);
  const failed = outcomes.find((outcome) => outcome.status === 'rejected');
  if (failed) throw failed.reason;
  return last;
}

/**
 * Sends the statements left for the commit and COMMIT in one write and one round trip: the pool's
 * connections are in pipeline mode, and the socket is corked while pg writes each message. If one
 * of them fails, PostgreSQL answers the COMMIT of the transaction it aborted with ROLLBACK: nothing
 * of it is kept, and the first failure is thrown.
 */
async function commit(open: OpenTransaction): Promise<void> {
  const { client, atCommit, ahead } = open;
  // Nothing was sent: there is no transaction on the server to commit.
  if (open.opening && atCommit.length === 0) return;
  open.ahead = undefined;
  const { stream } = client.connection;
  stream.cork();
  let sent: Promise<unknown>[];
  let committed: Promise<QueryResult>;
  try {
    sent = atCommit.map((statement) => send(open, statement));
    committed = client.query('COMMIT');
  } finally {
    stream.uncork();
  }
  const answer = await inOrder(ahead ? [ahead, ...sent] : sent, committed);
  if (answer.command !== 'COMMIT') throw new Error('The transaction was rolled back.');
}

/** A transaction-scoped advisory lock's two 32-bit keys: what it is for, and which one. */
export type AdvisoryLock = readonly [use: number, id: number];

/** The keys as SQL text: integers checked here, since they are written into the statement. */
function lockKeys([use, id]: AdvisoryLock): string {
  for (const key of [use, id]) {
    if (!Number.isInteger(key) || key < -(2 ** 31) || key >= 2 ** 31) {
      throw new Error(`An advisory lock key must be a 32-bit integer, not ${key}.`);
    }
  }
  return `${use}, ${id}`;
}
