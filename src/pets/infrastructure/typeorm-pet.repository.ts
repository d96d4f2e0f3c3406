import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { SqlStatement, SqlStatements } from '../../platform/database/sql-statements';
import {
  IdempotencyClaim,
  IdempotentCreation,
  PetPageQuery,
  PetRepository,
} from '../application/pet.repository';
import { NewPet, Pet } from '../domain/pet';
import { PetMapper } from './pet.mapper';
import { PetOrmEntity } from './pet.orm-entity';

// The hot statements, as fixed text: a request builds no SQL (docs/adr/0008).
const COLUMNS = 'id, name, category_id AS "categoryId", status';
const INSERT: SqlStatement = {
  name: 'pets_insert',
  text: `INSERT INTO pets (name, category_id, status) VALUES ($1, $2, $3) RETURNING ${COLUMNS}`,
};
const FIND_BY_ID: SqlStatement = {
  name: 'pets_find_by_id',
  text: `SELECT ${COLUMNS} FROM pets WHERE id = $1`,
};
const PAGE: SqlStatement = {
  name: 'pets_page',
  text: `SELECT ${COLUMNS} FROM pets WHERE id > $1 ORDER BY id LIMIT $2`,
};
const PAGE_BY_STATUS: SqlStatement = {
  name: 'pets_page_by_status',
  text: `SELECT ${COLUMNS} FROM pets WHERE status = $1 AND id > $2 ORDER BY id LIMIT $3`,
};

/** Raised inside the transaction to roll the pet back when its key is already claimed. */
class ClaimTaken extends Error {}

@Injectable()
export class TypeOrmPetRepository extends PetRepository {
  constructor(
    @InjectRepository(PetOrmEntity) private readonly rows: Repository<PetOrmEntity>,
    private readonly sql: SqlStatements,
  ) {
    super();
  }

  async add(pet: NewPet): Promise<Pet> {
    const row = PetMapper.toPersistence(pet);
    const [created] = await this.sql.query<PetOrmEntity>(INSERT, [
      row.name,
      row.categoryId,
      row.status,
    ]);
    return PetMapper.toDomain(created);
  }

  /**
   * One transaction: insert the pet and claim the key together, so that a claim never exists
   * without its pet. A concurrent retry's INSERT ... ON CONFLICT waits on the unique key until the
   * first transaction ends, then finds its claim and replays it. Claims past their lifetime are
   * taken over.
   */
  async addOnce(pet: NewPet, claim: IdempotencyClaim): Promise<IdempotentCreation> {
    return this.rows.manager
      .transaction(async (manager) => {
        const petRow = PetMapper.toPersistence(pet);
        const [created] = (await manager.query(
          `WITH pet AS (
           INSERT INTO pets (name, category_id, status) VALUES ($1, $2, $3)
           RETURNING id, name, category_id AS "categoryId", status
         ), claim AS (
           INSERT INTO idempotency_keys (scope, key, request_hash, pet_id)
           SELECT $4, $5, $6, id FROM pet
           ON CONFLICT (scope, key) DO UPDATE
             SET request_hash = EXCLUDED.request_hash, pet_id = EXCLUDED.pet_id, created_at = now()
             WHERE idempotency_keys.created_at < now() - make_interval(secs => $7)
           RETURNING pet_id
         )
         SELECT pet.* FROM pet JOIN claim ON claim.pet_id = pet.id`,
          [
            petRow.name,
            petRow.categoryId,
            petRow.status,
            claim.scope,
            claim.key,
            claim.requestHash,
            claim.ttlSeconds,
          ],
        )) as PetOrmEntity[];
        if (created) return { outcome: 'created' as const, pet: PetMapper.toDomain(created) };

        // The key is taken: roll this pet back, then answer with the earlier one.
        throw new ClaimTaken();
      })
      .catch(async (error: unknown) => {
        if (!(error instanceof ClaimTaken)) throw error;
        const [earlier] = (await this.rows.manager.query(
          `SELECT p.id, p.name, p.category_id AS "categoryId", p.status, k.request_hash AS "requestHash"
           FROM idempotency_keys k JOIN pets p ON p.id = k.pet_id
          WHERE k.scope = $1 AND k.key = $2`,
          [claim.scope, claim.key],
        )) as (PetOrmEntity & { requestHash: string })[];
        if (earlier.requestHash !== claim.requestHash) return { outcome: 'key_reused' as const };
        return { outcome: 'replayed' as const, pet: PetMapper.toDomain(earlier) };
      });
  }

  async findById(id: bigint): Promise<Pet | null> {
    const [row] = await this.sql.query<PetOrmEntity>(FIND_BY_ID, [id.toString()]);
    return row ? PetMapper.toDomain(row) : null;
  }

  async findPage({ status, after = 0n, limit }: PetPageQuery): Promise<Pet[]> {
    const rows = status
      ? await this.sql.query<PetOrmEntity>(PAGE_BY_STATUS, [status, after.toString(), limit])
      : await this.sql.query<PetOrmEntity>(PAGE, [after.toString(), limit]);
    return rows.map(PetMapper.toDomain);
  }
}
