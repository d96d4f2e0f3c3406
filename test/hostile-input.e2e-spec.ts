import { apiClient, expectError } from './support/http';
import { resetDatabase, startTestApp, TestApp } from './support/test-app';

/** docs/api.md, "Hostile input": every case a 4xx with the Error body, never a 5xx, nothing stored. */
describe('hostile input', () => {
  const ADMIN_TOKEN = 'hostile-input-suite-admin-token-0123456789';
  let t: TestApp;
  let api: ReturnType<typeof apiClient>;
  let admin: ReturnType<typeof apiClient>;
  const count = async (table: string) =>
    Number((await t.dataSource.query(`SELECT count(*) FROM ${table}`))[0].count);
  const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

  beforeAll(async () => {
    t = await startTestApp({ ADMIN_TOKEN });
    api = apiClient(t.url, t.auth);
    admin = apiClient(t.url, { authorization: `Bearer ${ADMIN_TOKEN}` });
  });
  beforeEach(() => resetDatabase(t.dataSource));
  afterAll(() => t.close());

  describe('numbers judged by their text', () => {
    const LITERALS = ['1.0', '1.0000000000000001', '1e0', '9007199254740991.4', '9007199254740993'];

    it.each(LITERALS)(
      'refuses %s for an integer field of a pet, an order and a key, naming the field, storing nothing',
      async (literal) => {
        const refusals = [
          [
            await api
              .post('/v1/pets')
              .set('content-type', 'application/json')
              .send(`{"name":"Rex","categoryId":${literal}}`),
            'categoryId',
          ],
          [
            await api
              .post('/v1/store/orders')
              .set('content-type', 'application/json')
              .send(`{"petId":${literal}}`),
            'petId',
          ],
          [
            await admin
              .post('/admin/api-keys')
              .set('content-type', 'application/json')
              .send(
                `{"name":"n","plan":"enterprise","limits":{"perMinute":${literal},"perDay":1000}}`,
              ),
            'perMinute',
          ],
        ] as const;
        for (const [response, field] of refusals) {
          expect(expectError(response, 400, 'validation_failed').body.message).toContain(field);
        }
        expect(await count('pets')).toBe(0);
        expect(await count('orders')).toBe(0);
      },
    );

    it('still takes 9007199254740991 written plainly, and digits inside a name as text', async () => {
      const response = await api
        .post('/v1/pets')
        .set('content-type', 'application/json')
        .send('{"name":"Rex 1.0e0 9007199254740993","categoryId":9007199254740991}');
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({
        name: 'Rex 1.0e0 9007199254740993',
        categoryId: 9007199254740991,
      });
    });
  });

  describe('JSON nested deeper than 32 levels', () => {
    it.each([
      [
        'arrays, a few thousand levels (under 16 KiB)',
        `{"name":"Rex","categoryId":1,"x":${nested(3000)}}`,
      ],
      ['objects, 33 levels', '{"a":'.repeat(33) + '1' + '}'.repeat(33)],
      ['a valid pet with a deep status', `{"name":"Rex","categoryId":1,"status":${nested(40)}}`],
    ])('is a 400 before anything walks it: %s', async (_, text) => {
      const response = await api
        .post('/v1/pets')
        .set('content-type', 'application/json')
        .send(text);
      expect(expectError(response, 400, 'validation_failed').body.message).toMatch(
        /nested deeper than 32 levels/,
      );
      expect(await count('pets')).toBe(0);
    });

    it('is refused on the admin API too', async () => {
      const before = await count('api_keys');
      const response = await admin
        .post('/admin/api-keys')
        .set('content-type', 'application/json')
        .send(`{"name":"a","plan":"free","limits":${nested(100)}}`);
      expectError(response, 400, 'validation_failed');
      expect(await count('api_keys')).toBe(before);
    });

    it('leaves 32 levels to the ordinary rules', async () => {
      const response = await api
        .post('/v1/pets')
        .set('content-type', 'application/json')
        .send(`{"name":"Rex","categoryId":1,"nesting":${nested(31)}}`);
      expect(expectError(response, 400, 'validation_failed').body.message).toMatch(
        /^nesting is not a field of this body\. Its fields are name, categoryId, status/,
      );
    });
  });

  describe('text', () => {
    it('accepts 100 emoji as a name and returns them exactly, as stored', async () => {
      const name = '🐕'.repeat(100);
      const created = await api.post('/v1/pets').send({ name, categoryId: 1 }).expect(201);
      expect(created.body.name).toBe(name);
      expect((await api.get(`/v1/pets/${created.body.id}`)).body.name).toBe(name);
      const [row] = await t.dataSource.query('SELECT name, char_length(name) AS n FROM pets');
      expect(row).toEqual({ name, n: 100 });
    });

    it.each([
      ['101 emoji', '🐕'.repeat(101), /1 to 100 characters/],
      ['a NUL character', 'Re\u0000x', /NUL/],
      ['a lone high surrogate', 'Rex\ud800', /lone surrogate/],
      ['a lone low surrogate', '\udc00Rex', /lone surrogate/],
      ['only white space', ' \u00a0\t', /only white space/],
    ])('refuses a pet name with %s: 400 naming the field, nothing stored', async (_, name, why) => {
      const response = expectError(
        await api.post('/v1/pets').send({ name, categoryId: 1 }),
        400,
        'validation_failed',
      );
      expect(response.body.message).toMatch(/^name /);
      expect(response.body.message).toMatch(why);
      expect(await count('pets')).toBe(0);
    });

    it.each([
      ['a NUL character', 'Acme\u0000'],
      ['a lone surrogate', 'Acme\udfff'],
      ['101 characters', '🔑'.repeat(101)],
    ])('refuses an API key name with %s, storing no key', async (_, name) => {
      const before = await count('api_keys');
      expectError(
        await admin.post('/admin/api-keys').send({ name, plan: 'free' }),
        400,
        'validation_failed',
      );
      expect(await count('api_keys')).toBe(before);
    });

    it('refuses a prototype-named property inside a nested object, storing no key', async () => {
      const before = await count('api_keys');
      const response = await admin.post('/admin/api-keys').send({
        name: 'Big Co',
        plan: 'enterprise',
        limits: { perMinute: 10, perDay: 100, hasOwnProperty: 1 },
      });
      expect(expectError(response, 400, 'validation_failed').body.message).toMatch(
        /^limits\.hasOwnProperty is not a field: no input may name a member of Object\.prototype/,
      );
      expect(await count('api_keys')).toBe(before);
    });

    it('accepts an API key name of 100 emoji, shown exactly in the listing', async () => {
      const name = '🔑'.repeat(100);
      const issued = await admin.post('/admin/api-keys').send({ name, plan: 'free' }).expect(201);
      const listed = (await admin.get('/admin/api-keys')).body.find(
        (key: { id: number }) => key.id === issued.body.id,
      );
      expect(listed.name).toBe(name);
    });

    it('stores an API key name exactly as sent: no trimming, no Unicode normalisation', async () => {
      // Leading and trailing white space, and an accent as a combining mark (NFC would fold it).
      const name = ' Cafe\u0301 Shop\u00a0 ';
      const issued = await admin.post('/admin/api-keys').send({ name, plan: 'free' }).expect(201);
      expect(issued.body.name).toBe(name);
      const listed = (await admin.get('/admin/api-keys')).body.find(
        (key: { id: number }) => key.id === issued.body.id,
      );
      expect(listed.name).toBe(name);
      const [row] = await t.dataSource.query('SELECT name FROM api_keys WHERE id = $1', [
        issued.body.id,
      ]);
      expect(row.name).toBe(name);
    });
  });
});
