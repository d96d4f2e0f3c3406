import { Injectable } from '@nestjs/common';
import { SqlStatement, SqlStatements } from '../database/sql-statements';
import {
  Idempotency,
  IDEMPOTENCY_TTL_SECONDS,
  IdempotencyKeyReusedError,
  IdempotentRequest,
  IdempotentResult,
} from './idempotency';

/** Claims a key, or takes over a claim past its lifetime; a row only when this request may create. */
const CLAIM: SqlStatement = {
  name: 'idempotency_claim',
  text: `INSERT INTO idempotency_keys (scope, key, request_hash) VALUES ($1, $2, $3)
         ON CONFLICT (scope, key) DO UPDATE
           SET request_hash = EXCLUDED.request_hash, response = NULL, created_at = now()
           WHERE idempotency_keys.created_at < now() - make_interval(secs => $4)
         RETURNING 1`,
};
const RECORD: SqlStatement = {
  name: 'idempotency_record',
  text: 'UPDATE idempotency_keys SET response = $3 WHERE scope = $1 AND key = $2',
};
const EARLIER: SqlStatement = {
  name: 'idempotency_earlier',
  text: 'SELECT request_hash, response FROM idempotency_keys WHERE scope = $1 AND key = $2',
};

/**
 * Idempotency in PostgreSQL, one transaction per creation: claim the key, create, record the
 * response. A concurrent retry's claim waits on the first one's row until it commits, then finds
 * the key taken and replays the recorded response (or creates, if the first rolled back). Claiming
 * before creating matters: a creation with a uniqueness rule of its own (one open order per pet)
 * would otherwise make a retry collide with its own first attempt instead of replaying it.
 */
@Injectable()
export class PostgresIdempotency extends Idempotency {
  constructor(private readonly sql: SqlStatements) {
    super();
  }

  once<T>(request: IdempotentRequest, create: () => Promise<T>): Promise<IdempotentResult<T>> {
    const { scope, key, fingerprint } = request;
    return this.sql.transaction(async () => {
      const claimed = await this.sql.query(CLAIM, [
        scope,
        key,
        fingerprint,
        IDEMPOTENCY_TTL_SECONDS,
      ]);
      if (claimed.length === 1) {
        const value = await create();
        // Nothing reads it before the creation commits: it goes with the COMMIT.
        await this.sql.queryAtCommit(RECORD, [scope, key, JSON.stringify(value)]);
        return { value, replayed: false };
      }
      const [earlier] = await this.sql.query<{ request_hash: string; response: T }>(EARLIER, [
        scope,
        key,
      ]);
      if (earlier.request_hash !== fingerprint) throw new IdempotencyKeyReusedError();
      return { value: earlier.response, replayed: true };
    });
  }
}
