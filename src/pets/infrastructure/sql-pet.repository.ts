import { Injectable } from '@nestjs/common';
import { sqlInstant } from '../../platform/database/sql-instant';
import { SqlStatement, SqlStatements } from '../../platform/database/sql-statements';
import { ChangeRule, PetPageQuery, PetRepository, PetUpdate } from '../application/pet.repository';
import { NewPet, Pet, PetId, PetPatch } from '../domain/pet';
import { OrganizationId } from '../../common/ownership';
import { GOOD_WITH } from '../../common/pet-profile';
import { admits, VersionPrecondition, versionsOf } from '../../common/versions';
import { PetHasOpenOrderError, PetVersionMismatchError } from '../domain/pet.errors';
import { PetMapper, PetRow } from './pet.mapper';

// The hot statements, as fixed text: a request builds no SQL (docs/adr/0008).
const COLUMNS = `id, name, category_id AS "categoryId", status,
  organization_id AS "organizationId", profile, version,
  ${sqlInstant('created_at')} AS "createdAt", ${sqlInstant('updated_at')} AS "updatedAt"`;

/**
 * The pet, and its category if no category has that id yet (unnamed), in one statement: the
 * foreign key, checked as the statement ends, finds it. A concurrent first use of the same
 * category waits for the other's insert and then changes nothing.
 */
const INSERT: SqlStatement = {
  name: 'pets_insert',
  text: `WITH "category" AS (
           INSERT INTO categories (id) VALUES ($2) ON CONFLICT DO NOTHING
         )
         INSERT INTO pets (name, category_id, status, organization_id, profile)
         VALUES ($1, $2, $3, $4, $5)
         RETURNING ${COLUMNS}`,
};
const FIND_BY_ID: SqlStatement = {
  name: 'pets_find_by_id',
  text: `SELECT ${COLUMNS} FROM pets WHERE id = $1 AND deleted_at IS NULL`,
};

/** The greatest id a pet can have: ids are JSON numbers, exact up to 2^53 - 1 (docs/adr/0008). */
const MAX_PET_ID = Number.MAX_SAFE_INTEGER;

/** Which filters a page has: each combination is a statement of its own, planned for its index. */
interface Filters {
  status: boolean;
  category: boolean;
  name: boolean;
}

/**
 * A page's statement: the filters given, then `id > after`, ascending, `limit` rows. A name is a
 * case-insensitive substring whose `%`, `_` and `\` the repository escapes (ESCAPE '\'), served by
 * the trigram index (PetNameSearch1795220340000). A name search is planned for its own text each
 * time: how many pets a fragment matches decides between that index and walking the ids.
 */
function pageStatement({ status, category, name }: Filters): SqlStatement {
  const conditions = ['deleted_at IS NULL'];
  const named = ['pets_page'];
  let parameter = 0;
  const filter = (condition: string, label: string) => {
    conditions.push(condition.replace('?', `$${++parameter}`));
    named.push(label);
  };
  if (status) filter('status = ?', 'status');
  if (category) filter('category_id = ?', 'category');
  if (name) filter(`name ILIKE ? ESCAPE '\\'`, 'name');
  // A closed range: without statistics the planner takes an open one for a third of the table
  // and a sort of the matches for cheaper than the ordered index (docs/adr/0050).
  conditions.push(`id > $${++parameter} AND id <= ${MAX_PET_ID}`);
  return {
    name: named.length === 1 ? named[0] : `${named[0]}_by_${named.slice(1).join('_and_')}`,
    text: `SELECT ${COLUMNS} FROM pets WHERE ${conditions.join(' AND ')}
           ORDER BY id LIMIT $${++parameter}`,
    prepare: !name,
  };
}

/** Every page statement, by its filters: status, category, name, as three bits. */
const PAGES: SqlStatement[] = Array.from({ length: 8 }, (_, bits) =>
  pageStatement({ status: (bits & 1) > 0, category: (bits & 2) > 0, name: (bits & 4) > 0 }),
);

/**
 * A page of v1.3's finding (CONTRACT.md "Finding"): one statement per combination of the filters
 * given (its name says which), made once and kept, so a request builds no SQL after the first of
 * its kind. Each filter has an index of its own, partial on live pets and ordered by id
 * (PetFinding1795240152000): the planner walks the most selective in id order, or the ids
 * themselves, and stops at the page's end. Values are parameters; the `goodWith` words are part
 * of the shape (each its own partial index).
 */
interface Finding {
  statement: SqlStatement;
  values: (query: PetPageQuery) => unknown[];
}

const FINDINGS = new Map<string, Finding>();

function findingOf(query: PetPageQuery): Finding {
  const { status, categoryId, name } = query;
  const f = query.finding!;
  const shape = [
    status !== undefined && 'st',
    f.statuses && 'sts',
    categoryId !== undefined && 'cat',
    name !== undefined && 'nm',
    f.organizationId !== undefined && 'org',
    f.breed !== undefined && 'br',
    f.ages && 'ag',
    f.sexes && 'sx',
    f.sizes && 'sz',
    ...(f.goodWith ?? []).map((word) => `g${word.slice(0, 2)}`),
    f.houseTrained !== undefined && 'ht',
    f.specialNeeds !== undefined && 'sn',
  ].filter((label): label is string => label !== false && label !== undefined);
  const key = shape.join(',');
  let finding = FINDINGS.get(key);
  if (!finding) {
    finding = findingStatement(shape);
    FINDINGS.set(key, finding);
  }
  return finding;
}

/**
 * Each filter's condition (`?`: its parameter) and its value, by its label in a shape; the labels
 * are short, since they make the statement's name (PostgreSQL keeps 63 characters of a name: every
 * shape's fits).
 */
const FINDING_FILTERS: Record<string, [condition: string, value: (q: PetPageQuery) => unknown]> = {
  st: ['status = ?', (q) => q.status],
  sts: ['status = ANY(?::varchar[])', (q) => q.finding!.statuses],
  cat: ['category_id = ?', (q) => q.categoryId],
  nm: [`name ILIKE ? ESCAPE '\\'`, (q) => containing(q.name!)],
  org: ['organization_id = ?', (q) => q.finding!.organizationId],
  br: [
    `(lower(profile -> 'breed' ->> 'primary') = lower(?1)
      OR lower(profile -> 'breed' ->> 'secondary') = lower(?1))`,
    (q) => q.finding!.breed,
  ],
  ag: [`profile ->> 'age' = ANY(?::text[])`, (q) => q.finding!.ages],
  sx: [`profile ->> 'sex' = ANY(?::text[])`, (q) => q.finding!.sexes],
  sz: [`profile ->> 'size' = ANY(?::text[])`, (q) => q.finding!.sizes],
  ht: [`profile -> 'attributes' ->> 'houseTrained' = ?`, (q) => String(q.finding!.houseTrained)],
  sn: [`profile -> 'attributes' ->> 'specialNeeds' = ?`, (q) => String(q.finding!.specialNeeds)],
};

/** The `goodWith` words, by their labels: each a condition of its own, no parameter. */
const GOOD_WITH_LABELS: Record<string, string> = Object.fromEntries(
  GOOD_WITH.map((word) => [`g${word.slice(0, 2)}`, word]),
);

function findingStatement(shape: string[]): Finding {
  const conditions = ['deleted_at IS NULL'];
  const takes: ((q: PetPageQuery) => unknown)[] = [];
  for (const label of shape) {
    const word = GOOD_WITH_LABELS[label];
    if (word) {
      conditions.push(`profile -> 'environment' ->> '${word}' = 'true'`);
      continue;
    }
    const [condition, value] = FINDING_FILTERS[label];
    takes.push(value);
    const parameter = `$${takes.length}`;
    conditions.push(condition.replaceAll('?1', parameter).replace('?', parameter));
  }
  conditions.push(`id > $${takes.length + 1} AND id <= ${MAX_PET_ID}`);
  return {
    statement: {
      name: `pets_find_${shape.join('_')}`,
      text: `SELECT ${COLUMNS} FROM pets WHERE ${conditions.join(' AND ')}
             ORDER BY id LIMIT $${takes.length + 2}`,
      // As a name search is: planned for its text each time.
      prepare: !shape.includes('nm'),
    },
    values: (q) => [...takes.map((take) => take(q)), q.after ?? 0, q.limit],
  };
}

/** `text` as a LIKE pattern that matches it anywhere, every character literal. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, '\\$&')}%`;

/**
 * The profile a change leaves, in SQL as `patchedProfile` says in TypeScript: $8 holds the members
 * the change gives (null: none), each replacing the stored one, except `breed`, `attributes` and
 * `environment`, which merge member by member (jsonb `||` replaces a key's value, null included).
 */
const MERGED_PROFILE = `CASE WHEN $8::jsonb IS NULL THEN profile ELSE
    profile || ($8::jsonb - 'breed' - 'attributes' - 'environment')
      || jsonb_build_object(
           'breed', (profile -> 'breed') || coalesce($8::jsonb -> 'breed', '{}'),
           'attributes', (profile -> 'attributes') || coalesce($8::jsonb -> 'attributes', '{}'),
           'environment', (profile -> 'environment') || coalesce($8::jsonb -> 'environment', '{}'))
  END`;

/**
 * A change that keeps the status needs no one's leave but its organisation's: applied in one
 * guarded statement, only if the pet exists and belongs to organisation $7, its version is among
 * $5 (when given: the precondition, compared by the database itself) and, when $6 is given, its
 * status is still $6. Anything else changes no row, and the
 * locked path below finds out why. A category named first here is created as for a new pet.
 * `changed`: whether the row trigger counted a change, which sets `updated_at` to the
 * transaction's `now()` (a change already made earlier in the same transaction would count too;
 * updatePet's transaction makes none).
 */
const UPDATE: SqlStatement = {
  name: 'pets_update',
  text: `WITH "pet" AS (
           UPDATE pets
              SET name = coalesce($2, name), category_id = coalesce($3, category_id),
                  status = coalesce($4, status), profile = ${MERGED_PROFILE}
            WHERE id = $1 AND organization_id = $7 AND deleted_at IS NULL
              AND ($5::int[] IS NULL OR version = ANY($5::int[]))
              AND ($6::varchar IS NULL OR status = $6)
           RETURNING ${COLUMNS}, updated_at = now() AS "changed"
         ), "category" AS (
           INSERT INTO categories (id)
           SELECT "categoryId" FROM "pet" WHERE $3::bigint IS NOT NULL
           ON CONFLICT DO NOTHING
         )
         SELECT * FROM "pet"`,
};
/** The pet, if organisation $2 owns it: another's is not found, as one that never was. */
const LOCK: SqlStatement = {
  name: 'pets_lock',
  text: `SELECT ${COLUMNS} FROM pets
         WHERE id = $1 AND organization_id = $2 AND deleted_at IS NULL FOR UPDATE`,
};
/**
 * Whether an order holds the pet, as the store's statements leave it: open means `placed` or
 * `approved` (the store's unique index `orders_one_open_per_pet` has the same predicate). Asked
 * with the pet locked, in a snapshot taken after the lock: every order placed before is seen, and
 * none can be placed until the change commits (placing one updates the pet's row).
 */
const OPEN_ORDER: SqlStatement = {
  name: 'pets_open_order',
  text: `SELECT EXISTS (
           SELECT 1 FROM orders WHERE pet_id = $1 AND status IN ('placed', 'approved')
         ) AS "openOrder"`,
};
const REMOVE: SqlStatement = {
  name: 'pets_remove',
  text: `UPDATE pets SET deleted_at = now()
          WHERE id = $1 AND deleted_at IS NULL
            AND ($2::int[] IS NULL OR version = ANY($2::int[]))
         RETURNING ${COLUMNS}`,
};

/** How the trigger refuses to delete a pet with an open order (PetVersionsAndDeletion1795220300000). */
const KEPT_WHILE_ORDERED = 'pets_kept_while_ordered';

@Injectable()
export class SqlPetRepository extends PetRepository {
  constructor(private readonly sql: SqlStatements) {
    super();
  }

  async add(pet: NewPet): Promise<Pet> {
    const row = PetMapper.toPersistence(pet);
    const [created] = await this.sql.query<PetRow>(INSERT, [
      row.name,
      row.categoryId,
      row.status,
      row.organizationId,
      row.profile,
    ]);
    return PetMapper.toDomain(created);
  }

  async findById(id: PetId): Promise<Pet | null> {
    const [row] = await this.sql.query<PetRow>(FIND_BY_ID, [id]);
    return row ? PetMapper.toDomain(row) : null;
  }

  async findPage(query: PetPageQuery): Promise<Pet[]> {
    if (query.finding) {
      const { statement, values } = findingOf(query);
      return (await this.sql.query<PetRow>(statement, values(query))).map(PetMapper.toDomain);
    }
    const { status, categoryId, name, after = 0, limit } = query;
    const values: unknown[] = [];
    if (status !== undefined) values.push(status);
    if (categoryId !== undefined) values.push(categoryId);
    if (name !== undefined) values.push(containing(name));
    const statement =
      PAGES[
        (status !== undefined ? 1 : 0) |
          (categoryId !== undefined ? 2 : 0) |
          (name !== undefined ? 4 : 0)
      ];
    const rows = await this.sql.query<PetRow>(statement, [...values, after, limit]);
    return rows.map(PetMapper.toDomain);
  }

  async update(
    id: PetId,
    owner: OrganizationId,
    patch: PetPatch,
    precondition: VersionPrecondition | undefined,
    rule: ChangeRule,
  ): Promise<PetUpdate | null> {
    // Most changes keep the status (a new name, another category): one statement, no lock held
    // across round trips. A status change, or any refusal, goes the locked way.
    const versions = versionsOf(precondition);
    const [applied] = await this.apply(id, owner, patch, versions, patch.status ?? null);
    if (applied) return { pet: PetMapper.toDomain(applied), changed: applied.changed };
    return this.whileLocked(id, owner, precondition, rule, async () => {
      const [updated] = await this.apply(id, owner, patch, versions, null);
      return { pet: PetMapper.toDomain(updated), changed: updated.changed };
    });
  }

  async remove(
    id: PetId,
    owner: OrganizationId,
    precondition: VersionPrecondition | undefined,
    rule: ChangeRule,
  ): Promise<Pet | null> {
    return this.whileLocked(id, owner, precondition, rule, async () => {
      const [removed] = await this.sql
        .query<PetRow>(REMOVE, [id, versionsOf(precondition)])
        .catch((error: unknown) => {
          // The database's own refusal, should an order have slipped past the rule.
          const { code, constraint } = error as { code?: string; constraint?: string };
          if (code === '23001' && constraint === KEPT_WHILE_ORDERED) {
            throw new PetHasOpenOrderError(id, 'it cannot be deleted');
          }
          throw error;
        });
      return PetMapper.toDomain(removed);
    });
  }

  private apply(
    id: PetId,
    owner: OrganizationId,
    patch: PetPatch,
    versions: number[] | null,
    keepStatus: string | null,
  ) {
    const row = PetMapper.patchToPersistence(patch);
    return this.sql.query<PetRow & { changed: boolean }>(UPDATE, [
      id,
      row.name ?? null,
      row.categoryId ?? null,
      row.status ?? null,
      versions,
      keepStatus,
      owner,
      row.profile,
    ]);
  }

  /**
   * Runs `change` in a transaction holding the pet's row lock, once the pet is found among the
   * owner's (else null), its version meets the precondition (412 before 409: a client that read an
   * old version learns that first) and `rule` allows the change, asked with what the orders say now.
   */
  private whileLocked<T>(
    id: PetId,
    owner: OrganizationId,
    precondition: VersionPrecondition | undefined,
    rule: ChangeRule,
    change: () => Promise<T>,
  ): Promise<T | null> {
    return this.sql.transaction(async () => {
      const [row] = await this.sql.query<PetRow>(LOCK, [id, owner]);
      if (!row) return null;
      const current = PetMapper.toDomain(row);
      if (!admits(precondition, current.version)) {
        throw new PetVersionMismatchError(id, current.version);
      }
      const [{ openOrder }] = await this.sql.query<{ openOrder: boolean }>(OPEN_ORDER, [id]);
      rule(current, { openOrder });
      return change();
    });
  }
}
