import { Injectable } from '@nestjs/common';
import { isPetStatus } from '../domain/pet-status';
import { SqlStatement, SqlStatements } from '../../platform/database/sql-statements';
import { OrganizationId } from '../../common/ownership';
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

/** How many pets' organisations an instance remembers: about 40 bytes each. */
const KNOWN_PETS = 10_000;

@Injectable()
export class SqlPetOwnership extends PetOwnership {
  /** The organisations of the pets read last, KNOWN_PETS at most, the oldest forgotten first. */
  private readonly organizations = new Map<number, OrganizationId>();

  constructor(private readonly sql: SqlStatements) {
    super();
  }

  async ownerOf(petId: number, options: PetOwnershipOptions = {}): Promise<PetOwner | null> {
    const statement = OWNER[(options.lock ? 1 : 0) + (options.deleted ? 2 : 0)];
    const [row] = await this.sql.query<OwnerRow>(statement, [petId]);
    if (!row) return null;
    const owner = toPetOwner(row);
    this.remember(owner);
    return owner;
  }

  override knownOrganizationOf(petId: number): OrganizationId | undefined {
    return this.organizations.get(petId);
  }

  private remember({ petId, organizationId }: PetOwner): void {
    if (this.organizations.get(petId) === organizationId) return;
    this.organizations.delete(petId);
    this.organizations.set(petId, organizationId);
    if (this.organizations.size > KNOWN_PETS) {
      this.organizations.delete(this.organizations.keys().next().value!);
    }
  }
}
