import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, IsNull, Repository } from 'typeorm';
import { ApiKeyRecord, NewApiKeyRecord } from '../api-key';
import { ApiKeyStore, KeyHash, RollCondition } from '../api-key-store';
import { Plan } from '../plans';
import { ApiKeyOrmEntity } from './api-key.orm-entity';

function toRecord(row: ApiKeyOrmEntity): ApiKeyRecord {
  return {
    id: row.id,
    name: row.name,
    plan: row.plan as Plan,
    limits:
      row.perMinute !== null && row.perDay !== null
        ? {
            perMinute: row.perMinute,
            perDay: row.perDay,
            ...(row.openOrders === null ? {} : { openOrders: row.openOrders }),
            ...(row.webhookEndpoints === null ? {} : { webhookEndpoints: row.webhookEndpoints }),
          }
        : null,
    scopes: row.scopes,
    organizationId: row.organizationId,
    prefix: row.prefix,
    hash: row.hash,
    previousHash: row.previousHash,
    previousHashExpiresAt: row.previousHashExpiresAt,
    expiresAt: row.expiresAt,
    createdAt: row.createdAt,
    revokedAt: row.revokedAt,
    lastUsedAt: row.lastUsedAt,
    rolledAt: row.rolledAt,
  };
}

/** What the set of known keys needs of a row. */
const KEY_HASH_COLUMNS = [
  'key.id AS id',
  'key.hash AS hash',
  'key.previous_hash AS "previousHash"',
  'key.previous_hash_expires_at AS "previousHashExpiresAt"',
  'key.expires_at AS "expiresAt"',
  'key.revoked_at AS "revokedAt"',
];

/** A key as a row of ApiKeyOrmEntity. */
const RECORD_COLUMNS = `id, name, plan, per_minute AS "perMinute", per_day AS "perDay",
    open_orders AS "openOrders", webhook_endpoints AS "webhookEndpoints", scopes,
    organization_id AS "organizationId", prefix, hash, previous_hash AS "previousHash",
    previous_hash_expires_at AS "previousHashExpiresAt", expires_at AS "expiresAt",
    changed_at AS "changedAt", created_at AS "createdAt", revoked_at AS "revokedAt",
    last_used_at AS "lastUsedAt", rolled_at AS "rolledAt"`;
/**
 * A key by either of its secrets: the look-up of a key whose trust expired, on the request path of
 * a key used too seldom to be kept warm, so in SQL of its own: the query builder spent more CPU
 * building the statement than the rest of the look-up.
 */
const FIND_BY_HASH = `SELECT ${RECORD_COLUMNS}
  FROM api_keys WHERE hash = $1 OR previous_hash = $1 LIMIT 1`;
/** The keys an instance renews its trust in, every half trust period: in one statement. */
const FIND_BY_IDS = `SELECT ${RECORD_COLUMNS} FROM api_keys WHERE id = ANY($1::bigint[])`;

/** Whether text is an id the bigint column can hold: anything else names no key. */
function isBigintId(id: string): boolean {
  return /^[1-9][0-9]{0,18}$/.test(id) && BigInt(id) <= 9223372036854775807n;
}

@Injectable()
export class TypeOrmApiKeyStore extends ApiKeyStore {
  constructor(
    @InjectRepository(ApiKeyOrmEntity) private readonly rows: Repository<ApiKeyOrmEntity>,
  ) {
    super();
  }

  async insert(key: NewApiKeyRecord): Promise<ApiKeyRecord> {
    const row = await this.rows.save(
      this.rows.create({
        name: key.name,
        plan: key.plan,
        perMinute: key.limits?.perMinute ?? null,
        perDay: key.limits?.perDay ?? null,
        openOrders: key.limits?.openOrders ?? null,
        webhookEndpoints: key.limits?.webhookEndpoints ?? null,
        scopes: key.scopes,
        organizationId: key.organizationId,
        expiresAt: key.expiresAt,
        prefix: key.prefix,
        hash: key.hash,
      }),
    );
    return toRecord(await this.rows.findOneByOrFail({ id: row.id }));
  }

  async findByHash(hash: string): Promise<ApiKeyRecord | null> {
    const [row] = (await this.rows.query(FIND_BY_HASH, [hash])) as ApiKeyOrmEntity[];
    return row ? toRecord(row) : null;
  }

  async findById(id: string): Promise<ApiKeyRecord | null> {
    if (!isBigintId(id)) return null;
    const row = await this.rows.findOneBy({ id });
    return row ? toRecord(row) : null;
  }

  async findByIds(ids: readonly string[]): Promise<ApiKeyRecord[]> {
    const valid = ids.filter(isBigintId);
    if (valid.length === 0) return [];
    return ((await this.rows.query(FIND_BY_IDS, [valid])) as ApiKeyOrmEntity[]).map(toRecord);
  }

  async list(organizationId?: string): Promise<ApiKeyRecord[]> {
    const where = organizationId === undefined ? {} : { organizationId };
    return (await this.rows.find({ where, order: { id: 'ASC' } })).map(toRecord);
  }

  async revoke(id: string, at: Date): Promise<boolean> {
    if (!isBigintId(id)) return false;
    const result = await this.rows.update(
      { id, revokedAt: IsNull() },
      { revokedAt: at, changedAt: () => 'now()' },
    );
    return (result.affected ?? 0) > 0;
  }

  async roll(
    id: string,
    secret: { hash: string; prefix: string },
    previousValidUntil: Date,
    { at, receivedAt, expiresAt }: RollCondition,
  ): Promise<ApiKeyRecord | null> {
    if (!isBigintId(id)) return null;
    // One statement, a compare-and-set: the secret replaced is the one the row holds as it is
    // updated, and of two rolls in flight together the second finds the row rolled after it was
    // received (its UPDATE waits for the first's row lock, then reads the row anew and changes
    // nothing), on whatever instance each runs.
    const query = this.rows
      .createQueryBuilder()
      .update()
      .set({
        hash: secret.hash,
        prefix: secret.prefix,
        previousHash: () => 'hash',
        previousHashExpiresAt: previousValidUntil,
        changedAt: () => 'now()',
        rolledAt: at,
        ...(expiresAt === undefined ? {} : { expiresAt }),
      })
      .where({ id, revokedAt: IsNull() })
      .andWhere('(expires_at IS NULL OR expires_at > :at)', { at });
    if (receivedAt !== undefined) {
      query.andWhere('(rolled_at IS NULL OR rolled_at < :receivedAt)', { receivedAt });
    }
    const result = await query.execute();
    if ((result.affected ?? 0) === 0) return null;
    return this.findById(id);
  }

  async recordUse(ids: string[], at: Date): Promise<void> {
    await this.rows.update({ id: In(ids) }, { lastUsedAt: at });
  }

  count(): Promise<number> {
    return this.rows.count();
  }

  hashesAfter(afterId: string | null, limit: number): Promise<KeyHash[]> {
    return this.rows
      .createQueryBuilder('key')
      .select(KEY_HASH_COLUMNS)
      .where('key.revoked_at IS NULL')
      .andWhere('key.id > :after', { after: afterId ?? '0' })
      .orderBy('key.id')
      .limit(limit)
      .getRawMany<KeyHash>();
  }

  async changedSince(since: Date | null): Promise<{ keys: KeyHash[]; until: Date }> {
    const [{ now }] = await this.rows.query<{ now: Date }[]>('SELECT now() AS now');
    if (since === null) return { keys: [], until: now };
    const keys = await this.rows
      .createQueryBuilder('key')
      .select(KEY_HASH_COLUMNS)
      .where('key.changed_at > :since', { since })
      .orderBy('key.id')
      .getRawMany<KeyHash>();
    return { keys, until: now };
  }
}
