import { Injectable } from '@nestjs/common';
import { SqlStatement, SqlStatements } from '../../platform/database/sql-statements';
import { Inventory, PetInventory } from '../application/inventory';

/** Sums the counter rows the triggers on `pets` keep (CountPetsByStatus1795220000000). */
const COUNTS: SqlStatement = {
  name: 'pet_status_counts_sum',
  text: 'SELECT status, sum(count)::bigint AS count FROM pet_status_counts GROUP BY status',
};

@Injectable()
export class SqlPetInventory extends PetInventory {
  constructor(private readonly sql: SqlStatements) {
    super();
  }

  async counts(): Promise<Partial<Inventory>> {
    const rows = await this.sql.query<{ status: keyof Inventory; count: string }>(COUNTS, []);
    return Object.fromEntries(rows.map(({ status, count }) => [status, Number(count)]));
  }
}
