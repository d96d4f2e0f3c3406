import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, IsNull, Repository } from 'typeorm';
import { ApiKeyRecord, NewApiKeyRecord } from '../api-key';
import { ApiKeyStore, KeyHash } from '../api-key-store';
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
          }
        : null,
    scopes: row.scopes,
    prefix: row.prefix,
    hash: row.hash,
    createdAt: row.createdAt,
    revokedAt: row.revokedAt,
    lastUsedAt: row.lastUsedAt,
  };
}

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
        scopes: key.scopes,
        prefix: key.prefix,
        hash: key.hash,
      }),
    );
    return toRecord(await this.rows.findOneByOrFail({ id: row.id }));
  }

  async findByHash(hash: string): Promise<ApiKeyRecord | null> {
    const row = await this.rows.findOneBy({ hash });
    return row ? toRecord(row) : null;
  }

  async list(): Promise<ApiKeyRecord[]> {
    return (await this.rows.find({ order: { id: 'ASC' } })).map(toRecord);
  }

  async revoke(id: string, at: Date): Promise<boolean> {
    if (!isBigintId(id)) return false;
    const result = await this.rows.update({ id, revokedAt: IsNull() }, { revokedAt: at });
    return (result.affected ?? 0) > 0;
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
      .select(['key.id AS id', 'key.hash AS hash'])
      .where('key.revoked_at IS NULL')
      .andWhere('key.id > :after', { after: afterId ?? '0' })
      .orderBy('key.id')
      .limit(limit)
      .getRawMany<KeyHash>();
  }
}
