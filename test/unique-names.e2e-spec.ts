import { DataSource } from 'typeorm';
import { CategoryNameKeys1795231100000 } from '../src/categories/infrastructure/migrations/1795231100000-category-name-keys';
import { migrations } from '../src/migrations';
import { freshDatabase } from './support/fresh-database';
import { apiClient, expectError } from './support/http';
import { resetDatabase, startTestApp, TestApp } from './support/test-app';

/**
 * Names that must be unique (categories, organisations) are compared after NFKC, full case
 * folding, trimming and removing invisible characters, by a key the database's unique index
 * holds; a name mixing scripts in one word is a 400 (docs/api.md, "Categories"; ADR 0045).
 */
jest.setTimeout(60_000);

/** Each of these is `Dogs` to a reader, or `Straße` to a German one. */
const LOOK_ALIKES: [string, string][] = [
  ['Dogs', 'DOGS'],
  ['Dogs', 'Ｄｏｇｓ'],
  ['Dogs', 'Do\u200Bgs'],
  ['Dogs', ' Dogs\u00A0'],
  ['Dogs', '\u202ADogs\u202C'],
  ['Dogs', '\u2066Dogs\u2069'],
  ['Dogs', 'Dogs\uFEFF'],
  ['Straße', 'STRASSE'],
  ['STRASSE', 'straße'],
  ['Café', 'Cafe\u0301'],
];
const MIXED = ['D\u043Egs', 'D\u03BFgs', '\u0421ats', 'Big D\u200B\u043Egs'];

describe('unique names', () => {
  const ADMIN_TOKEN = 'unique-names-suite-admin-token-0123456789';
  let t: TestApp;
  let staff: ReturnType<typeof apiClient>;
  let admin: ReturnType<typeof apiClient>;

  beforeAll(async () => {
    t = await startTestApp({ ADMIN_TOKEN });
    staff = apiClient(t.url, t.auth);
    admin = apiClient(t.url, { authorization: `Bearer ${ADMIN_TOKEN}` });
  });
  beforeEach(() => resetDatabase(t.dataSource));
  afterAll(() => t.close());

  describe('categories', () => {
    it.each(LOOK_ALIKES)('%j and %j cannot both be names: 409 naming the holder', async (a, b) => {
      await staff.put('/v1/categories/1').send({ name: a }).expect(201);
      const refused = expectError(
        await staff.put('/v1/categories/2').send({ name: b }),
        409,
        'already_exists',
      );
      expect(refused.body.message).toContain(`Category 1 is already named ${JSON.stringify(a)}`);
      // A category may take its own name in another spelling.
      expect((await staff.put('/v1/categories/1').send({ name: b })).status).toBe(200);
      const rows = await t.dataSource.query('SELECT id, name FROM categories ORDER BY id');
      expect(rows).toEqual([{ id: '1', name: b }]);
    });

    it.each(MIXED)('refuses %j, mixing scripts in one word, with 400', async (name) => {
      const refused = expectError(
        await staff.put('/v1/categories/1').send({ name }),
        400,
        'validation_failed',
      );
      expect(refused.body.message).toMatch(/^name must not mix (Latin|Cyrillic)/);
      expect(await t.dataSource.query('SELECT id FROM categories')).toEqual([]);
    });

    it('takes names of one script each, side by side', async () => {
      await staff.put('/v1/categories/1').send({ name: 'Dogs' }).expect(201);
      await staff.put('/v1/categories/2').send({ name: 'Собаки' }).expect(201);
      await staff.put('/v1/categories/3').send({ name: 'Dogs · Собаки' }).expect(201);
    });

    it('is enforced by the database itself: a second row with the same key is refused', async () => {
      await staff.put('/v1/categories/1').send({ name: 'Straße' }).expect(201);
      await expect(
        t.dataSource.query(
          `INSERT INTO categories (id, name, name_key) VALUES (2, 'STRASSE', 'strasse')`,
        ),
      ).rejects.toMatchObject({ code: '23505', constraint: 'categories_name_key_unique' });
      await expect(
        t.dataSource.query(`INSERT INTO categories (id, name) VALUES (3, 'Katzen')`),
      ).rejects.toMatchObject({ code: '23514' });
    });
  });

  describe('organisations', () => {
    const onboard = (name: string) =>
      admin.post('/admin/organizations').send({
        name,
        email: 'adopt@harbour.example',
        address: { city: 'Bristol', country: 'GB' },
      });

    it.each(LOOK_ALIKES)(
      '%j and %j cannot both be names: 409, at creation and renaming',
      async (a, b) => {
        const suffix = ` ${Date.now()}`;
        expect((await onboard(a + suffix)).status).toBe(201);
        expectError(await onboard(b + suffix), 409, 'already_exists');
        const other = await onboard(`Other${suffix}`);
        expect(other.status).toBe(201);
        const issued = await admin.post('/admin/api-keys').send({
          name: 'staff',
          plan: 'pro',
          scopes: ['organization:manage'],
          organizationId: other.body.id,
        });
        expectError(
          await apiClient(t.url, { authorization: `Bearer ${issued.body.key}` })
            .patch(`/v1/organizations/${other.body.id}`)
            .send({ name: b + suffix }),
          409,
          'already_exists',
        );
      },
    );

    it.each(MIXED)('refuses %j, mixing scripts in one word, with 400', async (name) => {
      expectError(await onboard(`${name} ${Date.now()}`), 400, 'validation_failed');
    });
  });
});

describe('categories and organisations named before the rule, upgraded', () => {
  it('keeps the oldest of each name and renames the later look-alikes, saying which', async () => {
    const database = await freshDatabase();
    try {
      const before = await new DataSource({
        type: 'postgres',
        url: database.url,
        migrations: migrations.slice(0, migrations.indexOf(CategoryNameKeys1795231100000)),
      }).initialize();
      await before.runMigrations();
      await before.query(
        `INSERT INTO categories (id, name) VALUES
           (1, 'Dogs'), (2, 'Ｄｏｇｓ'), (3, 'Straße'), (4, 'Do' || chr(8203) || 'gs'),
           (5, 'STRASSE'), (6, 'Cats'), (7, NULL), (8, 'D' || chr(1086) || 'gs')`,
      );
      await before.query(
        `INSERT INTO organizations (name, name_key)
           VALUES ('Straße Rescue', 'straße rescue'), ('STRASSE RESCUE', 'strasse rescue')`,
      );
      await before.destroy();

      const t = await startTestApp({ DATABASE_URL: database.url });
      try {
        const categories = await t.dataSource.query(
          'SELECT id, name, name_key FROM categories ORDER BY id',
        );
        expect(categories).toEqual([
          { id: '1', name: 'Dogs', name_key: 'dogs' },
          { id: '2', name: 'Ｄｏｇｓ (category 2)', name_key: 'dogs (category 2)' },
          { id: '3', name: 'Straße', name_key: 'strasse' },
          { id: '4', name: 'Do\u200Bgs (category 4)', name_key: 'dogs (category 4)' },
          { id: '5', name: 'STRASSE (category 5)', name_key: 'strasse (category 5)' },
          { id: '6', name: 'Cats', name_key: 'cats' },
          { id: '7', name: null, name_key: null },
          // Kept as stored: only new names are refused for mixing scripts.
          { id: '8', name: 'D\u043Egs', name_key: 'd\u043Egs' },
        ]);
        const organizations = await t.dataSource.query(
          `SELECT name, name_key FROM organizations WHERE name ILIKE '%rescue%' ORDER BY id`,
        );
        expect(organizations).toEqual([
          { name: 'Straße Rescue', name_key: 'strasse rescue' },
          { name: 'STRASSE RESCUE (organization 3)', name_key: 'strasse rescue (organization 3)' },
        ]);
        const api = apiClient(t.url, t.auth);
        expectError(
          await api.put('/v1/categories/9').send({ name: 'dogs' }),
          409,
          'already_exists',
        );
      } finally {
        await t.close();
      }
    } finally {
      await database.drop();
    }
  });
});
