import { Query } from 'pg';
import type { Connection, QueryConfig, QueryResult } from 'pg';

type Callback = (error: Error | null, result?: QueryResult) => void;

/** The parts of pg's `Query` this class builds on: present at run time, absent from its types. */
interface QueryInternals {
  name?: string;
  text: string;
  _result: QueryResult;
  _results: QueryResult | QueryResult[];
  hasBeenParsed(connection: Connection): boolean;
  prepare(connection: Connection): void;
  handleReadyForQuery(connection: Connection): void;
}

/** pg's own `Query`, whose writing and answering this class extends. */
const base = Query.prototype as unknown as QueryInternals;

/**
 * A transaction's first statement, sent with the statements that open the transaction (BEGIN,
 * its statement timeout, a lock) in one write and under one Sync, so that opening it costs no
 * round trip of its own (docs/adr/0033).
 *
 * One Sync is what makes this safe. pg ends every statement with a Sync of its own, and after a
 * Sync PostgreSQL runs the next statement whatever became of the one before: a BEGIN that failed
 * would have let the first statement run and commit alone. Under one Sync, a failure makes the
 * server skip everything after it up to the Sync: if BEGIN fails, the statement never runs.
 *
 * The answer is the statement's own, as a `Query` would give it. Its failure, or the opening's,
 * is the error, and the transaction is then aborted or never opened; a ROLLBACK ends either.
 */
export class OpeningStatement extends Query {
  constructor(
    /** Statements without parameters, run in this order before the statement. */
    readonly opening: readonly string[],
    statement: QueryConfig,
    callback: Callback,
  ) {
    // Extended protocol even for a statement without values: the simple one ends with a Sync.
    super({ ...statement, queryMode: 'extended' } as QueryConfig, callback as never);
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

  /** The rows of the statement: the opening's command tags are not part of its answer. */
  handleReadyForQuery(connection: Connection): void {
    const self = this as unknown as QueryInternals;
    self._results = self._result;
    base.handleReadyForQuery.call(this, connection);
  }
}

/** pg 8's connection as its own `Query` writes to it (its typings describe an older one). */
interface Wire {
  parse(statement: { name?: string; text: string }): void;
  bind(portal: object): void;
  describe(portal: { type: 'P' }): void;
  execute(portal: object): void;
  submittedNamedStatements: Record<string, string>;
}

/** Sends a statement with the statements that open its transaction; see OpeningStatement. */
export function queryOpening(
  client: { query(statement: OpeningStatement): unknown },
  opening: readonly string[],
  statement: QueryConfig,
): Promise<QueryResult> {
  return new Promise((resolve, reject) => {
    client.query(
      new OpeningStatement(opening, statement, (error, result) =>
        error ? reject(error) : resolve(result!),
      ),
    );
  });
}
