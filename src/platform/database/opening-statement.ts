import { Query } from 'pg';
import type { Connection, QueryConfig, QueryResult } from 'pg';
// pg's own mapping of a JavaScript value to a parameter, as its `Query` binds them.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { prepareValue } = require('pg/lib/utils') as { prepareValue: (value: unknown) => unknown };

/**
 * The answer to the statements after the opening: each one's result, in order; on a failure, the
 * error and the results of the statements that completed before it (none of the others ran).
 */
type Answer = (error: Error | null, results: QueryResult[]) => void;

/** The parts of pg's `Query` this class builds on: present at run time, absent from its types. */
interface QueryInternals {
  name?: string;
  text: string;
  portal: string;
  _result: QueryResult;
  _results: QueryResult | QueryResult[];
  hasBeenParsed(connection: Connection): boolean;
  prepare(connection: Connection): void;
  handleReadyForQuery(connection: Connection): void;
}

/** pg's own `Query`, whose writing and answering this class extends. */
const base = Query.prototype as unknown as QueryInternals;

/**
 * A transaction's first statements, sent with the statements that open the transaction (BEGIN,
 * its statement timeout, a lock) in one write and under one Sync, so that opening it costs no
 * round trip of its own (docs/adr/0033).
 *
 * One Sync is what makes this safe. pg ends every statement with a Sync of its own, and after a
 * Sync PostgreSQL runs the next statement whatever became of the one before: a BEGIN that failed
 * would have let the first statement run and commit alone. Under one Sync, a failure makes the
 * server skip everything after it up to the Sync: if BEGIN fails, no statement runs.
 *
 * The first statement is this `Query`'s own. Those that follow it (`following`) must be unnamed or
 * already prepared on the connection (`isPreparedOn`): a Parse of theirs sent in front, before
 * BEGIN, could fail after the first statement's had succeeded, and pg would then count neither
 * right. Each statement's answer is its own, as a `Query` would give it; a failure, in the opening
 * or in any statement, is the error, and the transaction is then aborted or never opened; a
 * ROLLBACK ends either.
 */
export class OpeningStatement extends Query {
  constructor(
    /** Statements without parameters, run in this order before the statement. */
    readonly opening: readonly string[],
    statement: QueryConfig,
    answer: Answer,
    /** Statements run after it, under the same Sync. */
    readonly following: readonly QueryConfig[] = [],
  ) {
    const sent: { query?: OpeningStatement } = {};
    // Extended protocol even for a statement without values: the simple one ends with a Sync.
    super(
      { ...statement, queryMode: 'extended' } as QueryConfig,
      ((error: Error | null) => answer(error, sent.query!.completed())) as never,
    );
    sent.query = this;
  }

  /** Called by pg's `submit`, which corks the socket around it: one write for every message. */
  prepare(connection: Connection): void {
    const self = this as unknown as QueryInternals;
    const wire = connection as unknown as Wire;
    // A named statement not yet prepared on this connection is parsed first, outside the
    // transaction: pg counts every ParseComplete that answers this query as the statement's own,
    // so if the statement's Parse failed after the opening's had succeeded, pg would believe it
    // prepared and never send its Parse again. In front, its failure is the first answer.
    if (self.name && !self.hasBeenParsed(connection)) {
      wire.parse({ name: self.name, text: self.text });
      wire.submittedNamedStatements[self.name] = self.text;
    }
    for (const text of this.opening) {
      wire.parse({ text });
      wire.bind({});
      // Described, as pg's own statements are: a row it answers with (a lock's) is then parsed.
      wire.describe({ type: 'P' });
      wire.execute({});
    }
    base.prepare.call(this, connection);
  }

  /**
   * pg's end of the statement, run by its `prepare`: the statement's Execute, then those that
   * follow it, then the one Sync.
   */
  _getRows(connection: Connection): void {
    const wire = connection as unknown as Wire;
    wire.execute({ portal: (this as unknown as QueryInternals).portal });
    for (const { name, text, values } of this.following) {
      if (!name) wire.parse({ text });
      wire.bind({ statement: name ?? '', values: values ?? [], valueMapper: prepareValue });
      wire.describe({ type: 'P' });
      wire.execute({});
    }
    wire.sync();
  }

  /**
   * The results of the statements (not the opening's) that completed: all of them once answered,
   * those before the failure otherwise.
   */
  private completed(): QueryResult[] {
    const self = this as unknown as QueryInternals;
    const all = Array.isArray(self._results) ? self._results : [self._results];
    return all.filter((result) => result.command).slice(this.opening.length);
  }
}

/**
 * Whether a statement may follow a transaction's first one under its Sync: unnamed (parsed in
 * place), or named and prepared on this connection already (confirmed by the server, not only sent).
 */
export function isPreparedOn(connection: Connection, statement: QueryConfig): boolean {
  if (!statement.name) return true;
  const { parsedStatements } = connection as unknown as Wire;
  return parsedStatements[statement.name] === statement.text;
}

/** pg 8's connection as its own `Query` writes to it (its typings describe an older one). */
interface Wire {
  parse(statement: { name?: string; text: string }): void;
  bind(portal: object): void;
  describe(portal: { type: 'P' }): void;
  execute(portal: object): void;
  sync(): void;
  submittedNamedStatements: Record<string, string>;
  parsedStatements: Record<string, string>;
}

/** Sends a statement with the statements that open its transaction; see OpeningStatement. */
export async function queryOpening(
  client: { query(statement: OpeningStatement): unknown },
  opening: readonly string[],
  statement: QueryConfig,
): Promise<QueryResult> {
  const [first] = await queryOpeningAll(client, opening, [statement]).then(settledOrThrow);
  return first;
}

/** A statement's outcome: its result, or the error that kept it from completing. */
export type Outcome = { result: QueryResult } | { error: Error };

/**
 * Sends statements with the statements that open their transaction, under one Sync; see
 * OpeningStatement. Each has its outcome: a statement after a failure shares its error.
 */
export function queryOpeningAll(
  client: { query(statement: OpeningStatement): unknown },
  opening: readonly string[],
  [statement, ...following]: readonly QueryConfig[],
): Promise<Outcome[]> {
  return new Promise((resolve) => {
    client.query(
      new OpeningStatement(
        opening,
        statement,
        (error, results) => {
          const outcomes: Outcome[] = results.map((result) => ({ result }));
          // Every statement is answered: one that completed nothing (an empty one) fails too.
          const missing = error ?? new Error('A statement sent together was not answered.');
          while (outcomes.length <= following.length) outcomes.push({ error: missing });
          resolve(outcomes);
        },
        following,
      ),
    );
  });
}

/** The results, or the first failure thrown. */
function settledOrThrow(outcomes: Outcome[]): QueryResult[] {
  return outcomes.map((outcome) => {
    if ('error' in outcome) throw outcome.error;
    return outcome.result;
  });
}
