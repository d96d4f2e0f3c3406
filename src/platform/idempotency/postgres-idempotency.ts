import { Injectable } from '@nestjs/common';
import { SqlStatement, SqlStatements } from '../database/sql-statements';
import {
  Idempotency,
  IDEMPOTENCY_TTL_SECONDS,
  IdempotencyKeyReusedError,
  IdempotentCreationInProgressError,
  IdempotentRequest,
  IdempotentResult,
} from './idempotency';

/**
 * Claims a key, or takes over a claim past its lifetime ($4 s); a row only when this request may
 * create. For a creation apart from its claim (`onceApart`), $5 s: it also takes over a claim left
 * without an answer for longer than any creation takes, whose request ended before recording one
 * (NULL for `once`, whose claim commits with its answer).
 */
const CLAIM: SqlStatement = {
  name: 'idempotency_claim',
  text: `INSERT INTO idempotency_keys (scope, key, request_hash) VALUES ($1, $2, $3)
         ON CONFLICT (scope, key) DO UPDATE
           SET request_hash = EXCLUDED.request_hash, response = NULL, created_at = now()
           WHERE idempotency_keys.created_at < now() - make_interval(secs => $4)
              OR (idempotency_keys.response IS NULL
                  AND idempotency_keys.created_at < now() - make_interval(secs => $5))
         RETURNING 1`,
};
/** Gives back the claim of a creation that failed, so that a retry may create. */
const RELEASE: SqlStatement = {
  name: 'idempotency_release',
  text: 'DELETE FROM idempotency_keys WHERE scope = $1 AND key = $2 AND response IS NULL',
};
const RECORD: SqlStatement = {
  name: 'idempotency_record',
  text: 'UPDATE idempotency_keys SET response = $3 WHERE scope = $1 AND key = $2',
};
const EARLIER: SqlStatement = {
  name: 'idempotency_earlier',
  text: 'SELECT request_hash, response FROM idempotency_keys WHERE scope = $1 AND key = $2',
};

/** How long a claim apart may stay without an answer before a retry takes it over. */
const ABANDONED_AFTER_SECONDS = 60;
/** How long a retry waits for the answer of a creation apart still under way, and how often it looks. */
const IN_PROGRESS_WAIT_MS = 5_000;
const IN_PROGRESS_POLL_MS = 25;

/**
 * Idempotency in PostgreSQL, one transaction per creation: claim the key, create, record the
 * response. A concurrent retry's claim waits on the first one's row until it commits, then finds
 * the key taken and replays the recorded response (or creates, if the first rolled back). Claiming
 * before creating matters: a creation with a uniqueness rule of its own (one open order per pet)
 * would otherwise make a retry collide with its own first attempt instead of replaying it.
 * `onceApart` commits the claim, the creation and the record each on its own (docs/adr/0016).
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
        null,
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

  async onceApart<T>(
    request: IdempotentRequest,
    create: () => Promise<T>,
  ): Promise<IdempotentResult<T>> {
    const { scope, key, fingerprint } = request;
    const deadline = Date.now() + IN_PROGRESS_WAIT_MS;
    for (;;) {
      const claimed = await this.sql.query(CLAIM, [
        scope,
        key,
        fingerprint,
        IDEMPOTENCY_TTL_SECONDS,
        ABANDONED_AFTER_SECONDS,
      ]);
      if (claimed.length === 1) {
        let value: T;
        try {
          value = await create();
        } catch (error) {
          // The creation's own error is the answer; a claim that could not be given back is
          // taken over once abandoned.
          await this.sql.query(RELEASE, [scope, key]).catch(() => undefined);
          throw error;
        }
        await this.sql.query(RECORD, [scope, key, JSON.stringify(value)]);
        return { value, replayed: false };
      }
      const [earlier] = await this.sql.query<{ request_hash: string; response: T | null }>(
        EARLIER,
        [scope, key],
      );
      // Released by a creation that failed: this request may create.
      if (earlier === undefined) continue;
      if (earlier.request_hash !== fingerprint) throw new IdempotencyKeyReusedError();
      if (earlier.response !== null) return { value: earlier.response, replayed: true };
      if (Date.now() >= deadline) throw new IdempotentCreationInProgressError();
      await new Promise((resolve) => setTimeout(resolve, IN_PROGRESS_POLL_MS));
    }
  }
}
