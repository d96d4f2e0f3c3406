import { Injectable } from '@nestjs/common';
import { roundKm } from '../../common/geo';
import { admits, VersionPrecondition } from '../../common/versions';
import { sqlInstant } from '../../platform/database/sql-instant';
import { SqlStatement, SqlStatements } from '../../platform/database/sql-statements';
import {
  OrganizationPageQuery,
  OrganizationRepository,
} from '../application/organization.repository';
import { uniqueNameKey } from '../../common/unique-name';
import {
  Organization,
  OrganizationId,
  OrganizationNearby,
  OrganizationProfile,
} from '../domain/organization';
import {
  OrganizationNameTakenError,
  OrganizationVersionMismatchError,
} from '../domain/organization.errors';
import { OrganizationMapper, OrganizationRow } from './organization.mapper';

const COLUMNS = `id, name, email, phone, website, address_line1 AS "line1", address_city AS "city",
  address_region AS "region", address_postal_code AS "postalCode", address_country AS "country",
  lat, lon, adoption_policy AS "adoptionPolicy", version,
  ${sqlInstant('created_at')} AS "createdAt", ${sqlInstant('updated_at')} AS "updatedAt"`;

/** The profile's columns, in the order OrganizationMapper.toValues gives them. */
const PROFILE_COLUMNS = `name, email, phone, website, address_line1, address_city, address_region,
  address_postal_code, address_country, lat, lon, adoption_policy`;

const INSERT: SqlStatement = {
  name: 'organizations_insert',
  text: `INSERT INTO organizations (name_key, ${PROFILE_COLUMNS})
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
         RETURNING ${COLUMNS}`,
};
const FIND_BY_ID: SqlStatement = {
  name: 'organizations_find_by_id',
  text: `SELECT ${COLUMNS} FROM organizations WHERE id = $1`,
};
const LOCK: SqlStatement = {
  name: 'organizations_lock',
  text: `SELECT ${COLUMNS} FROM organizations WHERE id = $1 FOR UPDATE`,
};
const UPDATE: SqlStatement = {
  name: 'organizations_update',
  text: `UPDATE organizations SET (name_key, ${PROFILE_COLUMNS}, version, updated_at) =
           ($2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, version + 1, now())
         WHERE id = $1 RETURNING ${COLUMNS}`,
};

/**
 * A page, by its filters. A name is a case-insensitive substring served by the trigram index,
 * planned for its value each time (how many rows match decides between the index and walking the
 * ids), so never prepared. A point and radius select through the GiST index on `geo` (the ball's
 * box), then by the exact distance, from the index alone (it carries the ids:
 * OrganizationsNearIndexOnly1795240155000); the page's rows are then read by their ids. The
 * planner's guess for a cube comparison is a fixed share of the table whatever the values, so
 * that plan is prepared; the point and the chord are computed once (InitPlans) rather than for
 * each organisation in the box, as a prepared statement's generic plan would.
 */
function pageStatement(named: boolean, near: boolean): SqlStatement {
  const conditions: string[] = [];
  let parameter = 0;
  if (named) conditions.push(`name ILIKE $${++parameter} ESCAPE '\\'`);
  let distance = '';
  if (near) {
    const [lat, lon, km] = [++parameter, ++parameter, ++parameter];
    const point = `(SELECT geo_point($${lat}, $${lon}))`;
    distance = `, geo_distance_km(geo, ${point}) AS "distanceKm"`;
    conditions.push(
      `geo <@ geo_ball($${lat}, $${lon}, $${km})`,
      `cube_distance(geo, ${point}) <= (SELECT geo_chord($${km}))`,
    );
  }
  conditions.push(`id > $${++parameter}`);
  const page = `FROM organizations WHERE ${conditions.join(' AND ')} ORDER BY id LIMIT $${parameter + 1}`;
  return {
    name: `organizations_page${named ? '_by_name' : ''}${near ? '_near' : ''}`,
    text: near
      ? `SELECT ${COLUMNS}${distance} FROM organizations
          WHERE id IN (SELECT id ${page}) ORDER BY id`
      : `SELECT ${COLUMNS} ${page}`,
    prepare: !named,
  };
}

const PAGES = [
  pageStatement(false, false),
  pageStatement(true, false),
  pageStatement(false, true),
  pageStatement(true, true),
];

/** `text` as a LIKE pattern that matches it anywhere, every character literal. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, '\\$&')}%`;

/** The unique index of names (CreateOrganizations1795230000000). */
const UNIQUE_NAME = 'organizations_name_key_unique';

/** A taken name, as the database refuses it, as the domain says it. */
function nameTaken(name: string) {
  return (error: unknown): never => {
    const { code, constraint } = error as { code?: string; constraint?: string };
    if (code === '23505' && constraint === UNIQUE_NAME) throw new OrganizationNameTakenError(name);
    throw error;
  };
}

@Injectable()
export class SqlOrganizationRepository extends OrganizationRepository {
  constructor(private readonly sql: SqlStatements) {
    super();
  }

  async add(profile: OrganizationProfile): Promise<Organization> {
    const [row] = await this.sql
      .query<OrganizationRow>(INSERT, [
        uniqueNameKey(profile.name),
        ...OrganizationMapper.toValues(profile),
      ])
      .catch(nameTaken(profile.name));
    return OrganizationMapper.toDomain(row);
  }

  async findById(id: OrganizationId): Promise<Organization | null> {
    const [row] = await this.sql.query<OrganizationRow>(FIND_BY_ID, [id]);
    return row ? OrganizationMapper.toDomain(row) : null;
  }

  async findPage({
    name,
    near,
    after = 0,
    limit,
  }: OrganizationPageQuery): Promise<(Organization | OrganizationNearby)[]> {
    const values: unknown[] = [];
    if (name !== undefined) values.push(containing(name));
    if (near) values.push(near.point.lat, near.point.lon, near.radiusKm);
    const statement = PAGES[(name !== undefined ? 1 : 0) | (near ? 2 : 0)];
    const rows = await this.sql.query<OrganizationRow>(statement, [...values, after, limit]);
    return rows.map((row) =>
      row.distanceKm === undefined
        ? OrganizationMapper.toDomain(row)
        : { ...OrganizationMapper.toDomain(row), distanceKm: roundKm(row.distanceKm) },
    );
  }

  update(
    id: OrganizationId,
    precondition: VersionPrecondition | undefined,
    change: (current: Organization) => OrganizationProfile | null,
  ): Promise<Organization | null> {
    return this.sql.transaction(async () => {
      const [row] = await this.sql.query<OrganizationRow>(LOCK, [id]);
      if (!row) return null;
      const current = OrganizationMapper.toDomain(row);
      if (!admits(precondition, current.version)) {
        throw new OrganizationVersionMismatchError(id, current.version);
      }
      const next = change(current);
      if (!next) return current;
      const [updated] = await this.sql
        .query<OrganizationRow>(UPDATE, [
          id,
          uniqueNameKey(next.name),
          ...OrganizationMapper.toValues(next),
        ])
        .catch(nameTaken(next.name));
      return OrganizationMapper.toDomain(updated);
    });
  }
}
