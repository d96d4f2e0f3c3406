import { Client } from 'pg';
import { clientWithStatementDeadlines } from './statement-deadlines';

/** Listens to a connection's loss so that Node does not end the process over it. */
const heard = () => undefined;

/**
 * The pool's connections: every statement bounded (statement-deadlines), and the loss of a
 * connection always heard.
 *
 * pg emits 'error' on a connection it loses, and an 'error' that nobody listens to ends the
 * process. The pool listens while a connection is idle in it, and each user once it holds one
 * (TypeORM's query runner, SqlStatements' transactions, the pool's own `query`), but between the
 * pool handing a connection over and its user's listener going on (the continuation of an
 * `await`), nobody did: a connection lost then, the server's goodbye in the same read as the
 * previous user's last answer, ended the process. It happened in a PostgreSQL fast-shutdown
 * restart (test/webhook-faults.e2e-spec.ts, about one run in ten).
 *
 * Heard here, and from the connection's first moment: pg has already marked it unusable, so its
 * next statement fails (a 503) and the pool drops it when it is released.
 */
export function poolClient(statementBoundMs: number): typeof Client {
  return class PoolClient extends clientWithStatementDeadlines(statementBoundMs) {
    constructor(...args: ConstructorParameters<typeof Client>) {
      super(...args);
      this.on('error', heard);
    }
  };
}
