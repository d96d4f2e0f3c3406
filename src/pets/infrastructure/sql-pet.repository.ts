import { Injectable } from '@nestjs/common';
import { sqlInstant } from '../../platform/database/sql-instant';
import { SqlStatement, SqlStatements } from '../../platform/database/sql-statements';
import { createHash } from 'node:crypto';
import {
  ChangeRule,
  PetOrder,
  PetPageQuery,
  PetRepository,
  PetUpdate,
} from '../application/pet.repository';
import { NewPet, Pet, PetId, PetPatch } from '../domain/pet';
import { OrganizationId } from '../../common/ownership';
import { GOOD_WITH } from '../domain/pet-profile-shape';
import { admits, VersionPrecondition, versionsOf } from '../../common/versions';
import {
  PetExternalIdTakenError,
  PetHasOpenOrderError,
  PetVersionMismatchError,
} from '../domain/pet.errors';
import { PetMapper, PetRow } from './pet.mapper';

// The hot statements, as fixed text: a request builds no SQL (docs/adr/0008).
const COLUMNS = `id, name, category_id AS "categoryId", status,
  organization_id AS "organizationId", external_id AS "externalId", profile, photos, version,
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
         INSERT INTO pets (name, category_id, status, organization_id, profile, external_id)
         VALUES ($1, $2, $3, $4, $5, $6)
         RETURNING ${COLUMNS}`,
};
/** INSERT's rows as arrays, one element a pet, in the order given (WITH ORDINALITY keeps it). */
const INSERT_MANY: SqlStatement = {
  name: 'pets_insert_many',
  text: `WITH "category" AS (
           INSERT INTO categories (id) SELECT DISTINCT unnest($2::bigint[]) ON CONFLICT DO NOTHING
         ), "added" AS (
           INSERT INTO pets (name, category_id, status, organization_id, profile, external_id)
           SELECT "name", "category", "status", "organization", "profile", "external"
             FROM unnest($1::varchar[], $2::bigint[], $3::varchar[], $4::bigint[], $5::jsonb[],
                         $6::varchar[])
                  AS "given" ("name", "category", "status", "organization", "profile", "external")
           RETURNING ${COLUMNS}
         )
         SELECT * FROM "added" ORDER BY id`,
};
const FIND_BY_ID: SqlStatement = {
  name: 'pets_find_by_id',
  text: `SELECT ${COLUMNS} FROM pets WHERE id = $1 AND deleted_at IS NULL`,
};

/**
 * An organisation's live pets by their external ids: one probe of the unique index per id
 * (PetExternalIds1795240160000), the LATERAL's LIMIT keeping each probe apart. Planned anew for
 * each batch (`prepare: false`), with the batch's values and the table as it is then, so that no
 * plan kept from an earlier table is ever run (docs/adr/0050 otherwise): a batch costs a plan of
 * a few hundred microseconds. Every plan kept once misread some table never analysed:
 * - `organization_id = $1 AND external_id = ANY($2)`, made on the empty table, read every pet of
 *   the organisation and filtered the ids (an import of 100,000 rows slowed as it went);
 * - the probe by equalities, made on the empty table, scanned a listing index and filtered;
 * - the probe by row comparison `(organization_id, external_id) >= ($1, id) AND <= ($1, id)`,
 *   made on a table of 20,000 pets without external ids, probed the organisation's index, and
 *   so read all its pets for each id (100 to 300 ms a batch in an import of 100,000 rows).
 * Planned with its values, the probe by equalities takes the unique index in each of those
 * states (test/external-id-lookup-plan).
 */
export const FIND_BY_EXTERNAL_IDS: SqlStatement = {
  name: 'pets_find_by_external_ids',
  text: `SELECT "found".* FROM unnest($2::varchar[]) AS "given" ("externalId")
         CROSS JOIN LATERAL (
           SELECT ${COLUMNS} FROM pets
            WHERE organization_id = $1 AND external_id = "given"."externalId"
              AND external_id IS NOT NULL AND deleted_at IS NULL
            LIMIT 1
         ) AS "found"`,
  prepare: false,
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
    f.ids && 'ids',
    status !== undefined && 'st',
    f.statuses && 'sts',
    categoryId !== undefined && 'cat',
    name !== undefined && 'nm',
    f.organizationId !== undefined && 'org',
    f.externalId !== undefined && 'ext',
    f.breed !== undefined && 'br',
    f.ages && 'ag',
    f.sexes && 'sx',
    f.sizes && 'sz',
    ...(f.goodWith ?? []).map((word) => `g${word.slice(0, 2)}`),
    f.houseTrained !== undefined && 'ht',
    f.specialNeeds !== undefined && 'sn',
    f.hasPhotos && 'ph',
    f.near && 'near',
    f.order && ORDER_LABELS[f.order.by],
    // A page after another, in an order of its own: the keyset continues from that pet.
    f.order && query.after !== undefined && 'k',
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
  // Up to 100 ids, read from the primary key's index.
  ids: ['id = ANY(?::bigint[])', (q) => q.finding!.ids],
  st: ['status = ?', (q) => q.status],
  sts: ['status = ANY(?::varchar[])', (q) => q.finding!.statuses],
  cat: ['category_id = ?', (q) => q.categoryId],
  nm: [`name ILIKE ? ESCAPE '\\'`, (q) => containing(q.name!)],
  org: ['organization_id = ?', (q) => q.finding!.organizationId],
  // Its own index, partial on live pets with one (PetExternalIds1795240160000), in id order.
  ext: ['external_id = ?', (q) => q.finding!.externalId],
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

/**
 * The filters that take no parameter, by their labels: each `goodWith` word, and `hasPhotos`
 * (the conditions of their partial indexes, PetFinding1795240152000 and PetPhotos1795240153000).
 */
const FIXED_FILTERS: Record<string, string> = {
  ...Object.fromEntries(
    GOOD_WITH.map((word) => [
      `g${word.slice(0, 2)}`,
      `profile -> 'environment' ->> '${word}' = 'true'`,
    ]),
  ),
  ph: `photos::text <> '[]'`,
};

const ORDER_LABELS: Record<PetOrder['by'], string> = {
  newest: 'new',
  name: 'byname',
  random: 'rnd',
  distance: 'dist',
};
const ORDER_LABEL_SET = new Set(Object.values(ORDER_LABELS));

/**
 * Near a point, in any order but the distance's: the pets in their order's index, each joined to
 * its organisation by its primary key if that is within the radius (by the exact distance alone:
 * given the ball's box too, the planner without statistics scans the GiST index for every pet). A
 * lateral subquery kept apart (OFFSET 0), so that the organisation is looked up per pet. The FROM
 * item names none of the pets' columns, so the filters' unqualified names stay the pets'.
 */
const nearPets = (point: string, km: string) =>
  `pets CROSS JOIN LATERAL (
     SELECT geo_distance_km(geo, ${point}) AS "distanceKm" FROM organizations
      WHERE id = pets.organization_id AND cube_distance(geo, ${point}) <= geo_chord(${km})
     OFFSET 0) AS "nearby"`;

/**
 * Nearest first: the organisations in the radius's box (the GiST index on `geo`), in distance
 * order (`<->`, the chord, in the same order as the kilometres), then ids; for each, its first
 * pets in id order, at most a page of them (a page never needs more of one organisation). The
 * page is then sorted incrementally, one organisation at a time, and stops once it is full, so
 * that a page reads about a page of pets however many organisations are near.
 *
 * That incremental sort is the planner's choice, made by how many organisations it expects. It
 * guesses a fixed share of the table for a cube comparison: the box's overlap (`&&`, the same
 * test as containment for a point) is guessed five times larger than containment (`<@`), and
 * the exact distance and the keyset after a pet are conditions of each organisation's pets, not
 * of the organisations, where they would divide the guess again. Guessing about one organisation,
 * the planner sorted all their pets at once: 24 ms for a second page at 1,000,000 pets over 2,000
 * shelters, against 2 ms (docs/performance.md).
 */
function distanceStatement(
  conditions: string[],
  near: { point: string; lat: string; lon: string; km: string },
  after: string | null,
  limit: string,
): string {
  const { point, lat, lon, km } = near;
  const organization = (k: string) => `(SELECT organization_id FROM pets WHERE id = ${k})`;
  const nearby = [`"nearbyOrder" <= geo_chord(${km})`];
  // After a pet: the organisations from its organisation's place on, and of that one only the
  // pets after it.
  if (after) {
    nearby.push(
      `("nearbyOrder", "nearbyId") >= (
         (SELECT geo <-> ${point} FROM organizations WHERE id = ${organization(after)}),
         ${organization(after)})`,
      `(organization_id <> ${organization(after)} OR id > ${after})`,
    );
  }
  return `SELECT "pet".*, geo_distance_km("nearbyGeo", ${point}) AS "distanceKm" FROM (
            SELECT id AS "nearbyId", geo AS "nearbyGeo", geo <-> ${point} AS "nearbyOrder"
              FROM organizations WHERE geo && geo_ball(${lat}, ${lon}, ${km})
             ORDER BY geo <-> ${point} OFFSET 0) AS "nearby"
          CROSS JOIN LATERAL (
            SELECT ${COLUMNS} FROM pets
             WHERE organization_id = "nearbyId" AND ${[...nearby, ...conditions].join(' AND ')}
             ORDER BY id LIMIT ${limit}) AS "pet"
          ORDER BY "nearbyOrder", "nearbyId", id LIMIT ${limit}`;
}

/**
 * Each order's SQL: its ORDER BY, and the keyset after the pet `?` (its id; the pet's own sort
 * key read from its row, which stays when it is deleted). Each has its index of live pets
 * (PetOrders1795240154000), read in order from the start or from the pet after. The keyset is
 * also a closed range of the sort key (the pet's, and the live pets' least or greatest): without
 * statistics the planner takes an open range for a third of the table, and a sort of it for
 * cheaper than the ordered index (as for the ids' pages, docs/adr/0050). The least or greatest is
 * the first pet of the order's index, not `min()` or `max()`: planned on the tables a fresh
 * database starts with, and kept, an aggregate read every live pet (by a whole index) for each
 * page after a pet, 30,000 pets where the page read 20 (test/no-match-plans).
 */
const ORDERS: Record<string, { orderBy: string; after: string }> = {
  new: {
    orderBy: 'created_at DESC, id DESC',
    after: `(created_at, id) < ((SELECT created_at FROM pets WHERE id = ?), ?)
            AND created_at <= (SELECT created_at FROM pets WHERE id = ?)
            AND created_at >= (SELECT created_at FROM pets WHERE deleted_at IS NULL
                                ORDER BY created_at, id LIMIT 1)`,
  },
  byname: {
    orderBy: 'name, id',
    after: `(name, id) > ((SELECT name FROM pets WHERE id = ?), ?)
            AND name >= (SELECT name FROM pets WHERE id = ?)
            AND name <= (SELECT name FROM pets WHERE deleted_at IS NULL
                          ORDER BY name DESC, id DESC LIMIT 1)`,
  },
};

/**
 * The shuffled order (`sort=random`): the pets by `hashint8(id)`, a fixed pseudo-random key of
 * each id, starting at the seed's point ($start) and wrapping round to the lowest keys, then by
 * id. Two ranges of one index, read one after the other; a page after a pet continues in the
 * range that pet is in (its key is a function of its id: no look-up).
 */
function shuffledStatement(
  { columns, from, conditions }: { columns: string; from: string; conditions: string[] },
  start: string,
  after: string | null,
  limit: string,
) {
  const key = (id: string) => `hashint8(${id}::bigint)`;
  // Closed ranges, for the planner without statistics (ORDERS).
  const [wrapped, first] = [
    `hashint8(id) < ${start} AND hashint8(id) >= -2147483648`,
    `hashint8(id) >= ${start} AND hashint8(id) <= 2147483647`,
  ];
  // After a pet of the first range: the rest of it, then the whole second. After one of the
  // second: nothing of the first (past its greatest key), the rest of the second.
  const inFirst = after && `${key(after)} >= ${start}`;
  const part = (range: string, keyset: string | null, n: number) => `(
      SELECT ${columns}, ${n} AS "part", hashint8(id) AS "shuffle" FROM ${from}
       WHERE ${[...conditions, range, ...(keyset ? [keyset] : [])].join(' AND ')}
       ORDER BY hashint8(id), id LIMIT ${limit})`;
  return `SELECT * FROM (${part(
    first,
    after &&
      `(hashint8(id), id) > (CASE WHEN ${inFirst} THEN ${key(after)} ELSE 2147483647 END,
                              CASE WHEN ${inFirst} THEN ${after}::bigint ELSE ${MAX_PET_ID} END)`,
    1,
  )} UNION ALL ${part(
    wrapped,
    after &&
      `(hashint8(id), id) > (CASE WHEN ${inFirst} THEN -2147483648 ELSE ${key(after)} END,
                              CASE WHEN ${inFirst} THEN 0 ELSE ${after}::bigint END)`,
    2,
  )}) AS "page" ORDER BY "part", "shuffle", id LIMIT ${limit}`;
}

/**
 * A page in id or name order whose filter would otherwise be checked pet by pet along the order's
 * index: one that matches nothing read every pet (the fifth review: `breed=nonexistent&sort=name`
 * read 200,069 rows at 200,000 pets, CONTRACT.md "Free is not unlimited"). Such a page starts from
 * its filter instead, read in the page's order from an index that leads with it, and stops at the
 * page's end: a filter that matches nothing reads nothing. The first of these the shape has drives
 * the page; any other filter is checked on the pets it reads.
 *
 * - `near`: the organisations within the radius, each with its first pets in the order (a page at
 *   most), sorted together: a page per organisation. That is cheap for a few organisations and
 *   dear for hundreds (a town's worth of shelters), where walking the order and keeping the pets
 *   of nearby organisations reads about a page. So the statement counts, up to NEAR_FEW + 1, the
 *   nearby organisations, and runs one way or the other (a one-time filter each: the other is
 *   never started). Far from every shelter it reads no pet. (Counting only organisations with a
 *   pet, by a probe of each, was planned on the empty tables as a whole index read per probe.)
 * - `breed`: its primary's index and its secondary's, each in the order, merged (a pet whose
 *   primary and secondary are both the breed comes from the primary's only).
 * - `age`: each age asked for, its pets in the order, merged: an index has one age's pets in the
 *   order, not several ages' (`= ANY` on the leading column reads them age by age).
 * - `hasPhotos`: its partial index of the pets with photos in name order, as planned: no change.
 *
 * The name-ordered indexes of a breed, an age and an organisation are on a spelling of the value
 * that their id-ordered indexes do not have (`profile #>> '{…}'`, `organization_id + 0`;
 * PetPagesFromTheirFilter1795240159000): given both, the planner without statistics guesses a row
 * or two, and reading them by the id index and sorting looked cheaper than the name index by a
 * hair, so a breed of 50,000 pets would be sorted whole. With one index for the condition there
 * is no such choice.
 */
interface PageParts {
  columns: string;
  from: string;
  conditions: string[];
  filters: Map<string, { condition: string; placeholder: string }>;
  near: { point: string; lat: string; lon: string; km: string } | undefined;
  byName: boolean;
  /** The pet the page starts after (in id order, always: 0 for the first page). */
  after: string | undefined;
}

/**
 * How many nearby organisations a page reads organisation by organisation: at
 * most NEAR_FEW pages of pets; beyond, the order's walk finds nearby pets among every 1 in
 * (shelters / NEAR_FEW) or better, if they are spread alike.
 */
const NEAR_FEW = 32;

function drivenPage(parts: PageParts, limit: string): string {
  const { columns, from, conditions, filters, near, byName, after } = parts;
  const orderBy = byName ? 'name, id' : 'id';
  const page = (cols: string, source: string, where: string[]) =>
    `SELECT ${cols} FROM ${source} WHERE ${where.join(' AND ')} ORDER BY ${orderBy} LIMIT ${limit}`;
  // The order's walk: the ids' closed range (docs/adr/0050), or the name order's keyset (ORDERS).
  const walked = [
    ...conditions,
    ...(!byName
      ? [`id > ${after} AND id <= ${MAX_PET_ID}`]
      : after
        ? [ORDERS.byname.after.replaceAll('?', `${after}::bigint`)]
        : []),
  ];
  // A page driven by `lead = value`, in id order: the ids' closed range, as the order's walk has
  // it, so that the driving index has every condition the walk has and its own besides (without
  // statistics the planner takes the index with the most conditions). In name order, after a pet:
  // a row comparison over the driving index's whole key, a bound the names' index cannot use
  // (given `name >= …` too, the planner without statistics took the names' index and checked the
  // filter pet by pet from there to the end).
  const driven = (lead: string, value: string, others: string[]) => [
    `${lead} = ${value}`,
    ...(!byName
      ? [`id > ${after} AND id <= ${MAX_PET_ID}`]
      : after
        ? [
            `(${lead}, name, id) > (${value},
               (SELECT name FROM pets WHERE id = ${after}::bigint), ${after}::bigint)`,
          ]
        : []),
    ...others,
  ];
  const without = (label: string) => conditions.filter((c) => c !== filters.get(label)!.condition);
  const breed = filters.get('br')?.placeholder;
  const ages = filters.get('ag')?.placeholder;
  if (near) {
    const { point, lat, lon, km } = near;
    const nearby = `geo && geo_ball(${lat}, ${lon}, ${km})
                    AND cube_distance(geo, ${point}) <= geo_chord(${km})`;
    // An organisation's pets in the order: by name from its own index (whose key is spelled
    // `organization_id + 0`); by id from the organisations' index, after a row comparison over
    // its key (with the ids' closed range alone, the planner walked the ids' index instead).
    const ofOrganization = byName
      ? driven('organization_id + 0', '"nearbyId"', conditions)
      : [
          'organization_id = "nearbyId"',
          `(organization_id, id) > ("nearbyId", ${after}) AND id <= ${MAX_PET_ID}`,
          ...conditions,
        ];
    const perOrganization = `(SELECT id AS "nearbyId", geo AS "nearbyGeo" FROM organizations
                               WHERE ${nearby} OFFSET 0) AS "nearby"
       CROSS JOIN LATERAL (
         ${page(
           `${COLUMNS}, geo_distance_km("nearbyGeo", ${point}) AS "distanceKm"`,
           'pets',
           ofOrganization,
         )}) AS "pet"`;
    // A SELECT, as every listing is (the CTE within): test/unanalysed-plans explains those.
    return `SELECT * FROM (
              WITH "few" AS (
                SELECT count(*) <= ${NEAR_FEW} AS "few" FROM (
                  SELECT 1 FROM organizations WHERE ${nearby} LIMIT ${NEAR_FEW + 1}) AS "some")
              (${page('"pet".*', perOrganization, ['(SELECT "few" FROM "few")'])})
              UNION ALL
              (${page(columns, from, [...walked, 'NOT (SELECT "few" FROM "few")'])})
            ) AS "page" ORDER BY ${orderBy} LIMIT ${limit}`;
  }
  if (breed) {
    const [primary, secondary] = (
      byName
        ? [`profile #>> '{breed,primary}'`, `profile #>> '{breed,secondary}'`]
        : [`profile -> 'breed' ->> 'primary'`, `profile -> 'breed' ->> 'secondary'`]
    ).map((key) => `lower(${key})`);
    const others = without('br');
    return `SELECT * FROM (
              (${page(columns, from, driven(primary, `lower(${breed})`, others))})
              UNION ALL
              (${page(
                columns,
                from,
                driven(secondary, `lower(${breed})`, [
                  `${primary} IS DISTINCT FROM lower(${breed})`,
                  ...others,
                ]),
              )})
            ) AS "page" ORDER BY ${orderBy} LIMIT ${limit}`;
  }
  if (ages) {
    const age = byName ? `(profile #>> '{age}')` : `(profile ->> 'age')`;
    return `SELECT "page".* FROM (SELECT DISTINCT unnest(${ages}::text[]) AS "age") AS "wanted"
            CROSS JOIN LATERAL (
              ${page(columns, from, driven(age, '"wanted"."age"', without('ag')))}) AS "page"
            ORDER BY ${orderBy} LIMIT ${limit}`;
  }
  return page(columns, from, walked);
}

function findingStatement(shape: string[]): Finding {
  const conditions = ['deleted_at IS NULL'];
  /** Each filter's condition and placeholder, by its label: what drives a page (drivenPage). */
  const filters = new Map<string, { condition: string; placeholder: string }>();
  const takes: ((q: PetPageQuery) => unknown)[] = [];
  const parameter = (take: (q: PetPageQuery) => unknown) => `$${takes.push(take)}`;
  let order: string | undefined;
  for (const label of shape) {
    const fixed = FIXED_FILTERS[label];
    if (fixed) {
      conditions.push(fixed);
      continue;
    }
    if (label === 'k' || label === 'near') continue;
    if (ORDER_LABEL_SET.has(label)) {
      order = label;
      continue;
    }
    const [condition, value] = FINDING_FILTERS[label];
    const placeholder = parameter(value);
    const written = condition.replaceAll('?1', placeholder).replace('?', placeholder);
    filters.set(label, { condition: written, placeholder });
    conditions.push(written);
  }
  const continues = shape.includes('k');
  const after = (q: PetPageQuery) => q.after;
  // Near a point: the pets of the organisations within the radius, each with its distance.
  let from = 'pets';
  let columns = COLUMNS;
  let near: { point: string; lat: string; lon: string; km: string } | undefined;
  if (shape.includes('near')) {
    const nearOf = (q: PetPageQuery) => q.finding!.near!;
    const lat = `${parameter((q) => nearOf(q).point.lat)}::float8`;
    const lon = `${parameter((q) => nearOf(q).point.lon)}::float8`;
    const km = `${parameter((q) => nearOf(q).radiusKm)}::float8`;
    near = { point: `geo_point(${lat}, ${lon})`, lat, lon, km };
    from = nearPets(near.point, km);
    columns = `${COLUMNS}, "distanceKm"`;
  }
  let text: string;
  if (order === 'dist') {
    const cursor = continues ? `${parameter(after)}::bigint` : null;
    text = distanceStatement(
      conditions,
      near!,
      cursor,
      parameter((q) => q.limit),
    );
  } else if (order === 'rnd') {
    const start = parameter((q) => (q.finding!.order as { start: number }).start);
    const cursor = continues ? parameter(after) : null;
    text = shuffledStatement(
      { columns, from, conditions },
      `${start}::int`,
      cursor,
      parameter((q) => q.limit),
    );
  } else if (order && order !== 'byname') {
    const { orderBy, after: keyset } = ORDERS[order];
    if (continues) {
      const placeholder = parameter(after);
      conditions.push(keyset.replaceAll('?', `${placeholder}::bigint`));
    }
    text = `SELECT ${columns} FROM ${from} WHERE ${conditions.join(' AND ')}
            ORDER BY ${orderBy} LIMIT ${parameter((q) => q.limit)}`;
  } else {
    // By id or by name: a page that starts from its filter where one would otherwise be checked
    // pet by pet along the order (DRIVERS).
    const byName = order === 'byname';
    const afterPet = byName
      ? continues
        ? parameter(after)
        : undefined
      : parameter((q) => q.after ?? 0);
    text = drivenPage(
      { columns, from, conditions, filters, near, byName, after: afterPet },
      parameter((q) => q.limit),
    );
  }
  return {
    statement: {
      name: statementName(shape),
      text,
      // As a name search is: planned for its text each time.
      prepare: !shape.includes('nm'),
    },
    values: (q) => takes.map((take) => take(q)),
  };
}

/**
 * The statement's name, which says its shape: PostgreSQL keeps 63 bytes of a name, so a longer
 * shape is named by a hash of it instead (two shapes must never share a name).
 */
function statementName(shape: string[]): string {
  const name = `pets_find_${shape.join('_')}`;
  return name.length <= 63
    ? name
    : `pets_find_${createHash('sha256').update(shape.join(',')).digest('hex').slice(0, 32)}`;
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
                  status = coalesce($4, status), profile = ${MERGED_PROFILE},
                  external_id = CASE WHEN $9::boolean THEN $10::varchar ELSE external_id END
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

/** The unique index of external ids among an organisation's live pets (PetExternalIds1795240160000). */
const EXTERNAL_ID_KEY = 'pets_live_organization_external_id_key';

/** A refusal of the database's unique index of external ids, as the domain says it; else as is. */
const externalIdTaken =
  (externalId: string | null | undefined) =>
  (error: unknown): never => {
    const { code, constraint } = error as { code?: string; constraint?: string };
    if (code === '23505' && constraint === EXTERNAL_ID_KEY && externalId) {
      throw new PetExternalIdTakenError(externalId);
    }
    throw error;
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
    const [created] = await this.sql
      .query<PetRow>(INSERT, [
        row.name,
        row.categoryId,
        row.status,
        row.organizationId,
        row.profile,
        row.externalId,
      ])
      .catch(externalIdTaken(pet.externalId));
    return PetMapper.toDomain(created);
  }

  async addMany(pets: readonly NewPet[]): Promise<Pet[]> {
    if (pets.length === 0) return [];
    const rows = pets.map((pet) => PetMapper.toPersistence(pet));
    const column = <K extends keyof (typeof rows)[number]>(key: K) => rows.map((row) => row[key]);
    // Identity values are drawn in the order the rows are inserted, which is the arrays' order:
    // ascending ids answer the pets in the order given. A taken external id fails the statement
    // as a whole: the caller's transaction is lost in any case, and its retry knows the pet.
    const created = await this.sql.query<PetRow>(INSERT_MANY, [
      column('name'),
      column('categoryId'),
      column('status'),
      column('organizationId'),
      column('profile'),
      column('externalId'),
    ]);
    return created.map((row) => PetMapper.toDomain(row));
  }

  async findById(id: PetId): Promise<Pet | null> {
    const [row] = await this.sql.query<PetRow>(FIND_BY_ID, [id]);
    return row ? PetMapper.toDomain(row) : null;
  }

  async findByExternalIds(
    organizationId: OrganizationId,
    externalIds: readonly string[],
  ): Promise<Pet[]> {
    if (externalIds.length === 0) return [];
    const rows = await this.sql.query<PetRow>(FIND_BY_EXTERNAL_IDS, [organizationId, externalIds]);
    return rows.map(PetMapper.toDomain);
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
    return this.sql
      .query<PetRow & { changed: boolean }>(UPDATE, [
        id,
        row.name ?? null,
        row.categoryId ?? null,
        row.status ?? null,
        versions,
        keepStatus,
        owner,
        row.profile,
        row.externalId !== undefined,
        row.externalId ?? null,
      ])
      .catch(externalIdTaken(row.externalId));
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
