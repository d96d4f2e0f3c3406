import { Injectable } from '@nestjs/common';
import { SqlStatement, SqlStatements } from '../../platform/database/sql-statements';
import { ExportLookups } from '../application/export-lookups';

const ORGANIZATION_EXISTS: SqlStatement = {
  name: 'imports_organization_exists',
  text: `SELECT EXISTS (SELECT 1 FROM organizations WHERE id = $1) AS "exists"`,
};
const CATEGORY_NAMES: SqlStatement = {
  name: 'imports_category_names',
  text: `SELECT id, name FROM categories WHERE id = ANY($1::bigint[]) AND name IS NOT NULL`,
};

@Injectable()
export class SqlExportLookups extends ExportLookups {
  constructor(private readonly sql: SqlStatements) {
    super();
  }

  async organizationExists(id: number): Promise<boolean> {
    const [{ exists }] = await this.sql.query<{ exists: boolean }>(ORGANIZATION_EXISTS, [id]);
    return exists;
  }

  async categoryNames(ids: readonly number[]): Promise<Map<number, string>> {
    const rows = await this.sql.query<{ id: string; name: string }>(CATEGORY_NAMES, [ids]);
    return new Map(rows.map((row) => [Number(row.id), row.name]));
  }
}
