import { Injectable } from '@nestjs/common';
import { SqlStatement, SqlStatements } from '../../platform/database/sql-statements';
import { PetPageQuery, PetRepository } from '../application/pet.repository';
import { NewPet, Pet, PetId } from '../domain/pet';
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

@Injectable()
export class TypeOrmPetRepository extends PetRepository {
  constructor(private readonly sql: SqlStatements) {
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

  async findById(id: PetId): Promise<Pet | null> {
    const [row] = await this.sql.query<PetOrmEntity>(FIND_BY_ID, [id]);
    return row ? PetMapper.toDomain(row) : null;
  }

  async findPage({ status, after = 0, limit }: PetPageQuery): Promise<Pet[]> {
    const rows = status
      ? await this.sql.query<PetOrmEntity>(PAGE_BY_STATUS, [status, after, limit])
      : await this.sql.query<PetOrmEntity>(PAGE, [after, limit]);
    return rows.map(PetMapper.toDomain);
  }
}
