import { Injectable } from '@nestjs/common';
import { SqlStatement, SqlStatements } from '../../platform/database/sql-statements';
import { OpenApplications } from '../application/open-applications';
import { PetId } from '../domain/pet';

/** One page's counts in one statement, each pet's by `applications_of_pet_idx`. */
const OPEN_COUNTS: SqlStatement = {
  name: 'pets_open_applications',
  text: `SELECT pet_id AS "petId", count(*)::int AS "count" FROM applications
          WHERE pet_id = ANY($1::bigint[]) AND status IN ('submitted', 'under_review', 'approved')
          GROUP BY pet_id`,
};

@Injectable()
export class SqlOpenApplications extends OpenApplications {
  constructor(private readonly sql: SqlStatements) {
    super();
  }

  async countsOf(petIds: readonly PetId[]): Promise<ReadonlyMap<PetId, number>> {
    const rows = await this.sql.query<{ petId: string; count: number }>(OPEN_COUNTS, [petIds]);
    return new Map(rows.map(({ petId, count }) => [Number(petId), count]));
  }
}
