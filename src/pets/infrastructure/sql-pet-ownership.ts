import { Injectable } from '@nestjs/common';
import { isPetStatus } from '../domain/pet-status';
import { SqlStatement, SqlStatements } from '../../platform/database/sql-statements';
import { PetOwner, PetOwnership } from '../application/ports/pet-ownership';

const COLUMNS = `id AS "petId", organization_id AS "organizationId", status`;
/** A deleted pet is no pet: none for every feature, as for an id never given. */
const OWNER: SqlStatement = {
  name: 'pets_owner',
  text: `SELECT ${COLUMNS} FROM pets WHERE id = $1 AND deleted_at IS NULL`,
};
const OWNER_LOCKED: SqlStatement = {
  name: 'pets_owner_locked',
  text: `SELECT ${COLUMNS} FROM pets WHERE id = $1 AND deleted_at IS NULL FOR UPDATE`,
};

interface OwnerRow {
  petId: string | number;
  organizationId: string | number;
  status: string;
}

/** The owner of a pet, read from the pets feature's own table. */
export function toPetOwner(row: OwnerRow): PetOwner {
  if (!isPetStatus(row.status)) throw new Error(`Stored pet ${row.petId} has an unknown status.`);
  return {
    petId: Number(row.petId),
    organizationId: Number(row.organizationId),
    status: row.status,
  };
}

@Injectable()
export class SqlPetOwnership extends PetOwnership {
  constructor(private readonly sql: SqlStatements) {
    super();
  }

  async ownerOf(petId: number, options?: { lock?: boolean }): Promise<PetOwner | null> {
    const [row] = await this.sql.query<OwnerRow>(options?.lock ? OWNER_LOCKED : OWNER, [petId]);
    return row ? toPetOwner(row) : null;
  }
}
