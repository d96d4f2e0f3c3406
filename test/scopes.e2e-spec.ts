import { ApiKeyScopesMigration, generateApiKey } from '@pet-adoption/api-keys';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DataSource } from 'typeorm';
import { DEFAULT_SCOPES, Scope, SCOPES } from '../src/common/scopes';
import { migrations } from '../src/migrations';
import { freshDatabase } from './support/fresh-database';
import { apiClient, expectError } from './support/http';
import { buildOnce } from './support/service-process';
import { resetDatabase, startTestApp, TestApp } from './support/test-app';

const ADMIN_TOKEN = 'admin-token-for-the-e2e-suite-0123456789';
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

/** Every operation, with a request that would succeed given the scope it needs. */
const OPERATIONS = [
  { id: 'listPets', scope: 'pets:read', call: 'get', path: '/v1/pets' },
  { id: 'getPet', scope: 'pets:read', call: 'get', path: '/v1/pets/1' },
  { id: 'getInventory', scope: 'pets:read', call: 'get', path: '/v1/store/inventory' },
  { id: 'createPet', scope: 'pets:write', call: 'post', path: '/v1/pets' },
  { id: 'listOrders', scope: 'orders:read', call: 'get', path: '/v1/store/orders' },
  { id: 'getOrder', scope: 'orders:read', call: 'get', path: '/v1/store/orders/1' },
  { id: 'placeOrder', scope: 'orders:write', call: 'post', path: '/v1/store/orders' },
  { id: 'updateOrder', scope: 'orders:write', call: 'patch', path: '/v1/store/orders/1' },
] as const;

describe('scopes', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ ADMIN_TOKEN });
  });
  beforeEach(() => resetDatabase(t.dataSource));
  afterAll(() => t.close());

  const keyWith = async (...scopes: Scope[]) =>
    apiClient(t.url, (await t.issueKey({ scopes })).auth);

  describe.each(OPERATIONS)('$id', ({ scope, call, path }) => {
    it(`is a 403 without ${scope}, naming it in WWW-Authenticate, before the body is read`, async () => {
      const client = await keyWith(...SCOPES.filter((s) => s !== scope && s !== 'orders:manage'));
      // A body that would be a 400: the scope is checked first.
      const response = expectError(
        await client[call](path).set('content-type', 'application/json').send('{oops'),
        403,
        'forbidden',
      );
      expect(response.headers['www-authenticate']).toBe(
        `Bearer error="insufficient_scope", scope="${scope}"`,
      );
      expect(response.body.message).toContain(scope);
      expect(response.headers['x-ratelimit-limit']).toBeDefined();
    });

    it(`passes the scope check with ${scope} alone`, async () => {
      const client = await keyWith(scope);
      const response = await client[call](path)
        .set('content-type', 'application/json')
        .send('{oops');
      expect(response.status).not.toBe(403);
    });
  });

  it('nothing is created, and the order not looked up, when the scope is missing', async () => {
    const shop = apiClient(t.url, t.auth);
    const petId = (await shop.post('/v1/pets').send({ name: 'Rex', categoryId: 1 })).body.id;
    const { id } = (await shop.post('/v1/store/orders').send({ petId })).body;
    const readOnly = await keyWith('pets:read', 'orders:read');
    expectError(
      await readOnly.post('/v1/pets').send({ name: 'Tom', categoryId: 1 }),
      403,
      'forbidden',
    );
    expectError(await readOnly.post('/v1/store/orders').send({ petId }), 403, 'forbidden');
    // Approving takes orders:manage: the same 403 for an order that exists and one that does not.
    const customer = await keyWith('orders:read', 'orders:write');
    for (const orderId of [id, 999]) {
      const refused = expectError(
        await customer.patch(`/v1/store/orders/${orderId}`).send({ status: 'approved' }),
        403,
        'forbidden',
      );
      expect(refused.headers['www-authenticate']).toBe(
        'Bearer error="insufficient_scope", scope="orders:manage"',
      );
      expect(refused.body.message).not.toContain(String(orderId));
    }
    expect((await shop.get('/v1/pets')).body).toHaveLength(1);
    expect((await shop.get(`/v1/store/orders/${id}`)).body.status).toBe('placed');
  });

  it('orders:manage alone lists, gets and moves the orders for its organisation’s pets, but places none', async () => {
    const shop = apiClient(t.url, t.auth);
    const petId = (await shop.post('/v1/pets').send({ name: 'Rex', categoryId: 1 })).body.id;
    const { id } = (await shop.post('/v1/store/orders').send({ petId })).body;
    // Staff of organisation 1, whose pet it is (docs/adr/0040).
    const manager = apiClient(
      t.url,
      (await t.issueKey({ scopes: ['orders:manage'], organizationId: '1' })).auth,
    );
    expect((await manager.get('/v1/store/orders')).body).toHaveLength(1);
    expect((await manager.get(`/v1/store/orders/${id}`)).status).toBe(200);
    expect(
      (await manager.patch(`/v1/store/orders/${id}`).send({ status: 'approved' })).status,
    ).toBe(200);
    expectError(await manager.post('/v1/store/orders').send({ petId }), 403, 'forbidden');
  });

  describe('on the admin API', () => {
    const adminApi = () => apiClient(t.url, admin);

    it('issues a key with the scopes asked for, and lists them', async () => {
      const issued = await adminApi()
        .post('/admin/api-keys')
        .send({ name: 'shelter', plan: 'pro', scopes: ['pets:read', 'orders:manage'] })
        .expect(201);
      expect(issued.body.scopes).toEqual(['pets:read', 'orders:manage']);
      const listed = (await adminApi().get('/admin/api-keys')).body.find(
        (key: { id: number }) => key.id === issued.body.id,
      );
      expect(listed.scopes).toEqual(['pets:read', 'orders:manage']);
      const shelter = apiClient(t.url, { authorization: `Bearer ${issued.body.key}` });
      expect((await shelter.get('/v1/store/orders')).status).toBe(200);
      expectError(
        await shelter.post('/v1/pets').send({ name: 'A', categoryId: 1 }),
        403,
        'forbidden',
      );
    });

    it('gives a key issued without scopes the defaults: v1 and its own orders', async () => {
      const issued = await adminApi().post('/admin/api-keys').send({ name: 'shop', plan: 'free' });
      expect(issued.body.scopes).toEqual(DEFAULT_SCOPES);
    });

    it.each([
      ['an empty list', [], 'scopes must name at least one scope'],
      ['an unknown scope', ['pets:read', 'pets:delete'], 'scopes must each be one of'],
      ['a repeated scope', ['pets:read', 'pets:read'], 'scopes must not repeat a scope'],
      ['not a list', 'pets:read', 'scopes must be an array'],
      ['null', null, 'scopes must be an array'],
    ])('refuses %s with a 400 naming scopes', async (_, scopes, message) => {
      const before = (await adminApi().get('/admin/api-keys')).body.length;
      const response = expectError(
        await adminApi().post('/admin/api-keys').send({ name: 'x', plan: 'free', scopes }),
        400,
        'validation_failed',
      );
      expect(response.body.message).toContain(message);
      expect((await adminApi().get('/admin/api-keys')).body).toHaveLength(before);
    });
  });
});

describe('scopes on keys that existed before them', () => {
  jest.setTimeout(60_000);

  it('are the defaults: every v1 operation and the key’s own orders, as before', async () => {
    const database = await freshDatabase();
    try {
      const scopesMigration = migrations.findIndex(
        (m) => m.name === ApiKeyScopesMigration([]).name,
      );
      const before = await new DataSource({
        type: 'postgres',
        url: database.url,
        migrations: migrations.slice(0, scopesMigration),
      }).initialize();
      await before.runMigrations();
      const { key, prefix, hash } = generateApiKey('pet_test_');
      await before.query(
        `INSERT INTO api_keys (name, plan, prefix, hash) VALUES ('old', 'free', $1, $2)`,
        [prefix, hash],
      );
      await before.destroy();

      const t = await startTestApp({ DATABASE_URL: database.url });
      try {
        const [row] = await t.dataSource.query(`SELECT scopes FROM api_keys WHERE name = 'old'`);
        expect(row.scopes).toEqual(DEFAULT_SCOPES);
        const old = apiClient(t.url, { authorization: `Bearer ${key}` });
        const pet = await old.post('/v1/pets').send({ name: 'Rex', categoryId: 1 }).expect(201);
        await old.get('/v1/pets').expect(200);
        await old.post('/v1/store/orders').send({ petId: pet.body.id }).expect(201);
        expectError(
          await old.patch('/v1/store/orders/1').send({ status: 'approved' }),
          403,
          'forbidden',
        );
      } finally {
        await t.close();
      }
    } finally {
      await database.drop();
    }
  });
});

describe('npm run apikey -- issue --scopes', () => {
  // A Node process booting the application context per command: never judged by its duration.
  jest.setTimeout(30_000);
  const CLI = join(__dirname, '..', 'dist', 'src', 'access', 'cli', 'apikey.js');
  beforeAll(() => buildOnce(), 120_000);

  const apikey = async (...args: string[]) => {
    try {
      const { stdout } = await promisify(execFile)(process.execPath, [CLI, ...args], {
        env: { ...process.env, API_KEY_PREFIX: 'pet_test_' },
      });
      return { code: 0, output: stdout };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, output: failed.stdout + failed.stderr };
    }
  };

  it('issues a key with the scopes given, and shows them', async () => {
    const issued = await apikey(
      'issue',
      '--name',
      'desk',
      '--plan',
      'pro',
      '--scopes',
      'orders:read,orders:manage',
    );
    expect(issued.code).toBe(0);
    expect(JSON.parse(issued.output.slice(0, issued.output.lastIndexOf('}') + 1)).scopes).toEqual([
      'orders:read',
      'orders:manage',
    ]);
  });

  it('refuses an unknown scope with one plain line', async () => {
    expect(
      await apikey('issue', '--name', 'desk', '--plan', 'pro', '--scopes', 'pets:fly'),
    ).toEqual({
      code: 1,
      output: `scopes must each be one of ${SCOPES.join(', ')}.\n`,
    });
  });
});
