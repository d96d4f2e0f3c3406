import { Injectable } from '@nestjs/common';
import { isPetStatus } from '../domain/pet-status';
import { SqlStatement, SqlStatements } from '../../platform/database/sql-statements';
import { PetOwner, PetOwnership, PetOwnershipOptions } from '../application/ports/pet-ownership';

const COLUMNS = `id AS "petId", organization_id AS "organizationId", status,
  deleted_at IS NOT NULL AS "deleted"`;
/**
 * A deleted pet is no pet: none for every feature, as for an id never given, unless the feature
 * asks for deleted ones too. One statement per combination of the options, each prepared once.
 */
const owner = (lock: boolean, deleted: boolean): SqlStatement => ({
  name: `pets_owner${deleted ? '_any' : ''}${lock ? '_locked' : ''}`,
  text: `SELECT ${COLUMNS} FROM pets WHERE id = $1${deleted ? '' : ' AND deleted_at IS NULL'}${
    lock ? ' FOR UPDATE' : ''
  }`,
});
const OWNER = [owner(false, false), owner(true, false), owner(false, true), owner(true, true)];

interface OwnerRow {
  petId: string | number;
  organizationId: string | number;
  status: string;
  deleted: boolean;
}

/** The owner of a pet, read from the pets feature's own table. */
export function toPetOwner(row: OwnerRow): PetOwner {
  if (!isPetStatus(row.status)) throw new Error(`Stored pet ${row.petId} has an unknown status.`);
  return {
    petId: Number(row.petId),
    organizationId: Number(row.organizationId),
    status: row.status,
    deleted: row.deleted,
  };
}

@Injectable()
export class SqlPetOwnership extends PetOwnership {
  constructor(private readonly sql: SqlStatements) {
    super();
  }

  async ownerOf(petId: number, options: PetOwnershipOptions = {}): Promise<PetOwner | null> {
    const statement = OWNER[(options.lock ? 1 : 0) + (options.deleted ? 2 : 0)];
    const [row] = await this.sql.query<OwnerRow>(statement, [petId]);
    return row ? toPetOwner(row) : null;
  }
}
