import { Injectable } from '@nestjs/common';
import { SqlStatement, SqlStatements } from '../../platform/database/sql-statements';
import { Inventory, PetInventory } from '../application/inventory';

/** Sums the counter rows the triggers on `pets` keep (CountPetsByStatus1795220000000). */
const COUNTS: SqlStatement = {
  name: 'pet_status_counts_sum',
  text: 'SELECT status, sum(count)::bigint AS count FROM pet_status_counts GROUP BY status',
};

/**
 * One organisation's live pets counted by `pets_organization_id_idx`: as many rows as it has pets,
 * no counter rows per organisation to keep on every change of every pet (docs/adr/0067).
 */
const COUNTS_OF: SqlStatement = {
  name: 'pet_inventory_of_organization',
  text: `SELECT status, count(*)::bigint AS count FROM pets
          WHERE organization_id = $1 AND deleted_at IS NULL
          GROUP BY status`,
};

const byStatus = (rows: { status: keyof Inventory; count: string }[]): Partial<Inventory> =>
  Object.fromEntries(rows.map(({ status, count }) => [status, Number(count)]));

@Injectable()
export class SqlPetInventory extends PetInventory {
  constructor(private readonly sql: SqlStatements) {
    super();
  }

  async counts(): Promise<Partial<Inventory>> {
    return byStatus(await this.sql.query(COUNTS, []));
  }

  async countsOf(organizationId: number): Promise<Partial<Inventory>> {
    return byStatus(await this.sql.query(COUNTS_OF, [organizationId]));
  }
}
