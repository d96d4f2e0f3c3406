import { Client, escapeLiteral } from 'pg';
import { SCOPES } from '../src/common/scopes';
import { SqlStatements } from '../src/platform/database/sql-statements';
import { freshDatabase, FreshDatabase } from './support/fresh-database';
import { apiClient } from './support/http';
import { nodesOf, PlanNode } from './support/query-plans';
import { startTestApp, TestApp } from './support/test-app';

/**
 * Plans that need no statistics (docs/adr/0050): on tables PostgreSQL has never analysed (a bulk
 * import, a machine without autovacuum), every listing statement the API sends reads its page in
 * order from an index: no sort of the matches (a sort of pages is fine), no BitmapAnd, no
 * sequential scan of a loaded table.
 * The statements are the ones the service sends, caught as it answers every listing with every
 * filter, and explained with the values it sent. They are explained twice: as planned for the
 * loaded tables, and as a prepared statement keeps the plan it made in the first minutes, on the
 * tables a fresh database's migrations left (never vacuumed, nearly empty), which PostgreSQL
 * keeps until the table is next analysed.
 */
jest.setTimeout(180_000);

/** A plan as one line per node, indented: what a failure shows. */
const outline = (node: PlanNode, depth = 0): string =>
  [
    `${'  '.repeat(depth)}${node['Node Type']} ${node['Relation Name'] ?? ''} ${node['Index Name'] ?? ''}`,
    ...(node.Plans ?? []).map((child) => outline(child, depth + 1)),
  ].join('\n');

const LOADED = [
  'pets',
  'orders',
  'events',
  'categories',
  'organizations',
  'webhook_deliveries',
  'webhook_attempts',
  'applications',
] as const;

const isLoaded = (node: PlanNode) =>
  (LOADED as readonly string[]).includes(node['Relation Name'] ?? '');

/**
 * Whether a loaded table's rows reach this node with no Limit on the way: a Sort above such a
 * scan sorts every match; one above Limits sorts pages (a union of two pages, say).
 */
function readsUnlimited(node: PlanNode): boolean {
  // A nested loop's inner side looks rows up for each outer one: its outer side says how many.
  const inputs = node['Node Type'] === 'Nested Loop' ? [node.Plans![0]] : (node.Plans ?? []);
  return inputs.some(
    (child) => child['Node Type'] !== 'Limit' && (isLoaded(child) || readsUnlimited(child)),
  );
}

/**
 * What may sort (and is still read for scans of the table): a name search reads the trigram index,
 * which has no order (a fragment's matches are sorted, at most the pets it matches); a `near` page
 * of organisations is ordered by distance, and pets nearest first (`<->`) sort at most a page of
 * each nearby organisation's pets.
 */
const mayNotBeIndexOrdered = (text: string) => /ILIKE|cube_distance|<->/.test(text);

/** A value the service sent, as a literal an EXECUTE takes. */
function literal(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (Array.isArray(value)) {
    const element = (item: unknown) =>
      item === null ? 'NULL' : `"${String(item).replace(/[\\"]/g, '\\$&')}"`;
    return escapeLiteral(`{${value.map(element).join(',')}}`);
  }
  if (value instanceof Date) return escapeLiteral(value.toISOString());
  return escapeLiteral(typeof value === 'object' ? JSON.stringify(value) : String(value));
}

/** EXECUTE of a prepared statement with the values the service sent. */
const execute = (name: string, values: unknown[]) =>
  `EXECUTE ${name}${values.length === 0 ? '' : `(${values.map(literal).join(', ')})`}`;

/** What is wrong with a listing's plan, if anything: the nodes this spec's rules refuse. */
function problemsOf(text: string, values: unknown[], plan: PlanNode): string[] {
  const bad = nodesOf(plan).filter(
    (node) =>
      (['Sort', 'Incremental Sort'].includes(node['Node Type']) &&
        readsUnlimited(node) &&
        !mayNotBeIndexOrdered(text)) ||
      node['Node Type'] === 'BitmapAnd' ||
      (node['Node Type'] === 'Seq Scan' && isLoaded(node)),
  );
  return bad.length === 0
    ? []
    : [
        `${bad.map((node) => node['Node Type']).join(', ')} in\n${text}\n${JSON.stringify(values)}\n${outline(plan)}`,
      ];
}

describe('listing plans on tables never analysed', () => {
  let database: FreshDatabase;
  let t: TestApp;
  const sent: { text: string; values: unknown[] }[] = [];
  /** A session holding each statement's plan as made on the empty tables, and their names. */
  let kept: Client;
  const keptNames = new Map<string, string>();

  beforeAll(async () => {
    database = await freshDatabase();
    t = await startTestApp({ DATABASE_URL: database.url, EVENT_SETTLE_INTERVAL_MS: '20' });
    const sql = t.app.get(SqlStatements);
    const query = sql.query.bind(sql);
    jest.spyOn(sql, 'query').mockImplementation((statement, values) => {
      // A listing's SELECT, not a background job's batch that locks what it takes (the sweep of
      // lapsed orders, on its timer): that sorts only the placed orders that lapsed, which a
      // partial index finds, and no reader waits on it.
      if (/^\s*SELECT/i.test(statement.text) && !/FOR UPDATE/i.test(statement.text)) {
        sent.push({ text: statement.text, values });
      }
      return query(statement, values);
    });
    const db = t.dataSource;
    for (const table of LOADED) {
      await db.query(`ALTER TABLE ${table} SET (autovacuum_enabled = false)`);
    }
    const staffKey = await t.issueKey({ organizationId: '1', scopes: [...SCOPES] });
    const keyId = staffKey.id;
    const staff = apiClient(t.url, staffKey.auth);
    const [{ id: endpointId }] = await db.query(
      `INSERT INTO webhook_endpoints (owner_key_id, url, events, secret)
       VALUES ($1, 'https://hooks.example/pets', '{pet.deleted}', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw')
       RETURNING id`,
      [keyId],
    );
    const after = (path: string) => `${path}${path.includes('?') ? '&' : '?'}after=5000`;
    const paths = [
      '/v1/pets',
      '/v1/pets?status=available',
      '/v1/pets?categoryId=7',
      '/v1/pets?status=available&categoryId=7',
      // v1.3's finding (CONTRACT.md "Finding"): each filter alone and with a status, and together.
      ...[
        'status=available,pending',
        'organizationId=1',
        // v1.4: a shelter's own id of an animal.
        'externalId=A-1043',
        'breed=collie',
        'breed=terrier',
        'age=baby,young',
        'sex=female',
        'size=large',
        'goodWith=children',
        'goodWith=children,dogs,cats',
        'houseTrained=true',
        'specialNeeds=true',
        'hasPhotos=true',
        // The orders (`sort`), from the start and (below) after a pet.
        'sort=-createdAt',
        'sort=name',
        'sort=random&seed=5',
        'near=52.5,-0.5&radiusKm=100',
        'near=52.5,-0.5&radiusKm=100&sort=distance',
      ].flatMap((filter) => [`/v1/pets?${filter}`, `/v1/pets?${filter}&status=available`]),
      '/v1/pets?age=young&size=large&goodWith=children&houseTrained=false&sex=male',
      '/v1/store/orders',
      '/v1/store/orders?status=delivered',
      '/v1/categories',
      '/v1/organizations',
      '/v1/organizations?near=52.5,-0.5&radiusKm=100',
      '/v1/events',
      '/v1/events?type=pet.created',
      `/v1/webhook-endpoints/${endpointId}/deliveries`,
      // An organisation's applications (v1.4), with each filter: the contract's status page first.
      '/v1/applications?status=submitted',
      '/v1/applications',
      '/v1/applications?petId=3',
      '/v1/applications?status=under_review&petId=3',
      '/v1/applications?assignee=me',
      '/v1/applications?status=submitted&assignee=me',
    ];
    // A customer's key reading only its own orders' events: the feed of one owner.
    const customer = apiClient(t.url, (await t.issueKey({ scopes: ['orders:read'] })).auth);
    // An adopter's key reading its own applications.
    const adopterKey = await t.issueKey({ scopes: ['applications:write'] });
    const adopter = apiClient(t.url, adopterKey.auth);
    const listAll = async () => {
      for (const [client, path] of [
        ...[...paths, ...paths.map(after)].map((path) => [staff, path] as const),
        [customer, '/v1/events'] as const,
        [adopter, '/v1/applications?status=submitted'] as const,
        [adopter, '/v1/applications?after=5000'] as const,
      ]) {
        const response = await client.get(path);
        // An `after` a listing does not take is refused; the page before it was read.
        expect([200, 400]).toContain(response.status);
      }
    };

    // The plans a prepared statement would keep from the first minutes: made on the tables as the
    // migrations left them (a session that plans every statement generically makes them at once).
    await listAll();
    kept = new Client({ connectionString: database.url });
    await kept.connect();
    await kept.query('SET plan_cache_mode = force_generic_plan');
    for (const { text, values } of sent) {
      if (keptNames.has(text)) continue;
      const name = `kept_${keptNames.size}`;
      keptNames.set(text, name);
      await kept.query(`PREPARE ${name} AS ${text}`);
      await kept.query(execute(name, values));
    }

    await db.query(
      `INSERT INTO organizations (name, name_key, email, address_city, address_country, lat, lon)
       SELECT 'Shelter ' || i, 'shelter ' || i, 'a' || i || '@shelter.example', 'York', 'GB',
              50 + random() * 5, -3 + random() * 5
         FROM generate_series(2, 10000) i`,
    );
    await db.query(`INSERT INTO categories (id) SELECT generate_series(1, 1000)`);
    await db.query(
      `INSERT INTO pets (name, category_id, status, organization_id, photos, profile)
       SELECT 'Rex ' || i, 1 + i % 1000, (ARRAY['available', 'pending', 'sold'])[1 + i % 3], 1,
              CASE WHEN i % 4 = 0 THEN '[{"id": 1}]'::json ELSE '[]'::json END,
              jsonb_build_object(
                'breed', jsonb_build_object(
                  'primary', (ARRAY['Labrador', 'Collie', 'Beagle', 'Poodle'])[1 + i % 4],
                  'secondary', CASE WHEN i % 5 = 0 THEN 'Terrier' END, 'mixed', i % 5 = 0),
                'age', (ARRAY['baby', 'young', 'adult', 'senior'])[1 + i % 4],
                'birthDate', NULL, 'sex', (ARRAY['female', 'male'])[1 + i % 2],
                'size', (ARRAY['small', 'medium', 'large', 'xlarge'])[1 + i % 4],
                'coat', NULL, 'colors', '[]'::jsonb, 'description', NULL,
                'attributes', jsonb_build_object('spayedNeutered', NULL,
                  'houseTrained', i % 3 = 0, 'specialNeeds', i % 10 = 0, 'shotsCurrent', NULL),
                'environment', jsonb_build_object('children', i % 2 = 0, 'dogs', i % 3 = 0,
                  'cats', CASE WHEN i % 7 = 0 THEN false END),
                'tags', '[]'::jsonb)
         FROM generate_series(1, 10000) i`,
    );
    await db.query(
      `INSERT INTO orders (pet_id, owner_key_id, status, organization_id)
       SELECT i, $1, 'delivered', 1 FROM generate_series(1, 10000) i`,
      [keyId],
    );
    // Applications of organisation 1, a key's half, with every status and a few assigned.
    await db.query(
      `INSERT INTO applications (pet_id, organization_id, applicant_key_id, status, applicant,
                                 applicant_email, answers, questionnaire_version, assignee_key_id)
       SELECT 1 + i % 10000, 1, CASE WHEN i % 2 = 0 THEN $1 ELSE $2 END::bigint,
              (ARRAY['submitted', 'under_review', 'denied', 'withdrawn', 'closed'])[1 + i % 5],
              '{}'::jsonb, 'a' || i || '@example.com', '{}'::jsonb, 1,
              CASE WHEN i % 10 = 0 THEN $2::bigint END
         FROM generate_series(1, 10000) i`,
      [adopterKey.id, keyId],
    );
    await db.query(
      `INSERT INTO events (type, readers, read_scope, data)
       SELECT 'pet.created', 'everyone', 'pets:read', json_build_object('id', i)
         FROM generate_series(1, 10000) i`,
    );
    await db.query(
      `INSERT INTO webhook_deliveries (event_id, endpoint_id, state)
       SELECT id, $1, 'succeeded' FROM events`,
      [endpointId],
    );
    await db.query(
      `INSERT INTO webhook_attempts (delivery_id, endpoint_id, attempt, outcome, response_status,
                                     duration_ms, attempted_at)
       SELECT id, $1, 1, 'succeeded', 204, 12, now() FROM webhook_deliveries`,
      [endpointId],
    );
    // Numbered, as the feed reads them.
    for (let i = 0; ; i++) {
      const [{ n }] = await db.query(
        'SELECT count(*)::int AS n FROM events WHERE public_id IS NULL',
      );
      if (n === 0) break;
      if (i > 600) throw new Error('The events were not numbered within 60 s.');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const analysed = await db.query(
      `SELECT relname FROM pg_stat_user_tables
        WHERE relname = ANY ($1) AND (last_analyze IS NOT NULL OR last_autoanalyze IS NOT NULL)`,
      [LOADED],
    );
    expect(analysed).toEqual([]);

    sent.length = 0;
    await listAll();
  });
  afterAll(async () => {
    await kept?.end();
    await t?.close();
    await database?.drop();
  });

  const listings = () => sent.filter(({ text }) => /ORDER BY/i.test(text));

  it('reads every listing in order from an index', async () => {
    expect(listings().length).toBeGreaterThanOrEqual(60);
    // The contract's case (v1.4): an organisation's applications with a status, among them.
    expect(
      listings().filter(({ text }) =>
        /FROM applications\s+WHERE organization_id = \$1 AND status = \$4\s+AND id >/.test(text),
      ),
    ).toHaveLength(2);
    const problems: string[] = [];
    for (const { text, values } of listings()) {
      const [
        {
          'QUERY PLAN': [{ Plan }],
        },
      ] = await t.dataSource.query(`EXPLAIN (FORMAT JSON) ${text}`, values);
      problems.push(...problemsOf(text, values, Plan as PlanNode));
    }
    expect(problems).toEqual([]);
  });

  it('does so too with the plans made on the tables a fresh database starts with', async () => {
    const problems: string[] = [];
    for (const { text, values } of listings()) {
      const name = keptNames.get(text);
      if (!name) {
        problems.push(`not sent on the empty tables, so not planned there:\n${text}`);
        continue;
      }
      const {
        rows: [
          {
            'QUERY PLAN': [{ Plan }],
          },
        ],
      } = await kept.query<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(
        `EXPLAIN (FORMAT JSON) ${execute(name, values)}`,
      );
      problems.push(...problemsOf(text, values, Plan));
    }
    expect(problems).toEqual([]);
  });
});
