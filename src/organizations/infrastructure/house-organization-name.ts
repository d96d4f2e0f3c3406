import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { HOUSE_ORGANIZATION_ID } from '../../common/ownership';
import { AppConfig } from '../../platform/config/app-config';
import { SqlStatement, SqlStatements } from '../../platform/database/sql-statements';
import { uniqueNameKey } from '../../common/unique-name';

/**
 * Names organisation 1 from DEFAULT_ORGANIZATION_NAME while no one has changed it (version 1):
 * the upgrade that created it knew no configuration. Instances starting together all try; the
 * first changes it, and the version it leaves stops the others, and every later start.
 */
const NAME_IF_UNCHANGED: SqlStatement = {
  name: 'organizations_name_house',
  text: `UPDATE organizations SET name = $2, name_key = $3, version = version + 1, updated_at = now()
         WHERE id = $1 AND version = 1 AND name <> $2`,
};

@Injectable()
export class HouseOrganizationName implements OnApplicationBootstrap {
  constructor(
    private readonly sql: SqlStatements,
    private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const name = this.config.organizations.defaultName;
    await this.sql.query(NAME_IF_UNCHANGED, [HOUSE_ORGANIZATION_ID, name, uniqueNameKey(name)]);
  }
}
