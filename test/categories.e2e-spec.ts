import { apiClient, expectError } from './support/http';
import { resetDatabase, startTestApp, TestApp } from './support/test-app';

/** Categories: every categoryId names one, created unnamed on first use and named by PUT. */
describe('categories', () => {
  let t: TestApp;
  let api: ReturnType<typeof apiClient>;

  beforeAll(async () => {
    t = await startTestApp({ PUBLIC_BASE_URL: 'https://pets.example/v1' });
    api = apiClient(t.url, t.auth);
  });
  beforeEach(() => resetDatabase(t.dataSource));
  afterAll(() => t.close());

  const list = async (query = '') => (await api.get(`/v1/categories${query}`)).body;

  describe('PUT /v1/categories/{categoryId}', () => {
    it('creates a category (201), then renames it (200)', async () => {
      const created = await api.put('/v1/categories/3').send({ name: 'Dogs' });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({ id: 3, name: 'Dogs' });
      expect(created.headers['x-api-stability']).toBe('beta');
      const renamed = await api.put('/v1/categories/3').send({ name: 'Hounds' });
      expect(renamed.status).toBe(200);
      expect(renamed.body).toEqual({ id: 3, name: 'Hounds' });
      expect(await list()).toEqual([{ id: 3, name: 'Hounds' }]);
    });

    it('names a category a pet created, unnamed (200)', async () => {
      await api.post('/v1/pets').send({ name: 'Rex', categoryId: 7 }).expect(201);
      expect(await list()).toEqual([{ id: 7, name: null }]);
      const named = await api.put('/v1/categories/7').send({ name: 'Cats' });
      expect(named.status).toBe(200);
      expect(await list()).toEqual([{ id: 7, name: 'Cats' }]);
    });

    it('refuses a name another category has, whatever its case, naming that category', async () => {
      await api.put('/v1/categories/3').send({ name: 'Dogs' }).expect(201);
      for (const name of ['Dogs', 'DOGS', 'dogs']) {
        const refused = expectError(
          await api.put('/v1/categories/4').send({ name }),
          409,
          'already_exists',
        );
        expect(refused.body.message).toContain('Category 3');
      }
      await api.put('/v1/categories/5').send({ name: 'Cats' }).expect(201);
      expectError(await api.put('/v1/categories/5').send({ name: 'dOgS' }), 409, 'already_exists');
      expect(await list()).toEqual([
        { id: 3, name: 'Dogs' },
        { id: 5, name: 'Cats' },
      ]);
    });

    it('compares names case-insensitively beyond ASCII too', async () => {
      await api.put('/v1/categories/3').send({ name: 'Écureuils' }).expect(201);
      expectError(
        await api.put('/v1/categories/4').send({ name: 'ÉCUREUILS' }),
        409,
        'already_exists',
      );
    });

    it('lets a category take its own name in another case', async () => {
      await api.put('/v1/categories/3').send({ name: 'Dogs' }).expect(201);
      const renamed = await api.put('/v1/categories/3').send({ name: 'DOGS' });
      expect(renamed.status).toBe(200);
      expect(renamed.body).toEqual({ id: 3, name: 'DOGS' });
    });

    it('frees a name once its category is renamed', async () => {
      await api.put('/v1/categories/3').send({ name: 'Dogs' }).expect(201);
      await api.put('/v1/categories/3').send({ name: 'Hounds' }).expect(200);
      await api.put('/v1/categories/4').send({ name: 'dogs' }).expect(201);
    });

    it('keeps names unique under concurrency: of four namings at once, one succeeds', async () => {
      const answers = await Promise.all(
        [10, 11, 12, 13].map((id) => api.put(`/v1/categories/${id}`).send({ name: 'Birds' })),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409]);
      expect((await list()).filter((c: { name: string }) => c.name === 'Birds')).toHaveLength(1);
    });

    it.each([
      ['no name', {}, 'name'],
      ['a null name', { name: null }, 'name'],
      ['an empty name', { name: '' }, 'name'],
      ['a blank name', { name: '  ' }, 'name'],
      ['a name of 51 characters', { name: 'x'.repeat(51) }, 'name'],
      ['a NUL character', { name: 'a\u0000b' }, 'name'],
      ['an unknown property', { name: 'Dogs', id: 3 }, 'id'],
    ])('refuses %s with a 400, storing nothing', async (_, body, field) => {
      const refused = expectError(
        await api.put('/v1/categories/3').send(body),
        400,
        'validation_failed',
      );
      expect(refused.body.message).toContain(field);
      expect(await list()).toEqual([]);
    });

    it('accepts 50 emoji, counted as characters', async () => {
      const name = '🐈'.repeat(50);
      expect((await api.put('/v1/categories/3').send({ name })).body).toEqual({ id: 3, name });
    });

    it.each(['0', '-1', '1.5', 'abc', '9007199254740992', '9223372036854775808'])(
      'refuses the id %s with a 400',
      async (id) => {
        expectError(
          await api.put(`/v1/categories/${id}`).send({ name: 'Dogs' }),
          400,
          'validation_failed',
        );
      },
    );

    it('takes the largest id a JSON client carries exactly', async () => {
      await api.put('/v1/categories/9007199254740991').send({ name: 'Dogs' }).expect(201);
      expect(await list()).toEqual([{ id: 9007199254740991, name: 'Dogs' }]);
    });

    it("needs pets:manage of organisation 1's staff, and takes application/json only", async () => {
      for (const scopes of [['pets:read'], ['pets:read', 'pets:write']]) {
        const reader = apiClient(t.url, (await t.issueKey({ scopes, organizationId: '1' })).auth);
        expectError(await reader.put('/v1/categories/3').send({ name: 'Dogs' }), 403, 'forbidden');
      }
      const adopter = apiClient(t.url, (await t.issueKey({ scopes: ['pets:manage'] })).auth);
      const refused = expectError(
        await adopter.put('/v1/categories/3').send({ name: 'Dogs' }),
        403,
        'forbidden',
      );
      expect(refused.body.message).toMatch(/only the staff of organisation 1 name them/);
      expect(await list()).toEqual([]);
      expectError(
        await api
          .put('/v1/categories/3')
          .set('content-type', 'application/merge-patch+json')
          .send('{"name":"Dogs"}'),
        415,
        'unsupported_media_type',
      );
    });
  });

  describe('GET /v1/categories', () => {
    it('pages every category, named or not, in ascending id with a next link', async () => {
      for (const id of [5, 1, 3, 9]) {
        await api.post('/v1/pets').send({ name: 'Rex', categoryId: id }).expect(201);
      }
      await api.put('/v1/categories/3').send({ name: 'Cats' }).expect(200);
      const first = await api.get('/v1/categories?limit=2');
      expect(first.body).toEqual([
        { id: 1, name: null },
        { id: 3, name: 'Cats' },
      ]);
      expect(first.headers.link).toBe(
        '<https://pets.example/v1/categories?limit=2&after=3>; rel="next"',
      );
      expect(first.headers['x-api-stability']).toBe('beta');
      const second = await api.get('/v1/categories?limit=2&after=3');
      expect(second.body).toEqual([
        { id: 5, name: null },
        { id: 9, name: null },
      ]);
      expect(second.headers.link).toBeUndefined();
      expect(await list('?after=9223372036854775807')).toEqual([]);
    });

    it.each(['limit=0', 'limit=101', 'after=-1', 'name=Cats', 'limit=1&limit=2'])(
      'refuses %s with a 400',
      async (query) => {
        expectError(await api.get(`/v1/categories?${query}`), 400, 'validation_failed');
      },
    );

    it('needs pets:read', async () => {
      const customer = apiClient(t.url, (await t.issueKey({ scopes: ['orders:read'] })).auth);
      expectError(await customer.get('/v1/categories'), 403, 'forbidden');
    });
  });

  describe('every categoryId names a category', () => {
    it('creates the category of a new categoryId with the pet, and v1 answers as before', async () => {
      const response = await api.post('/v1/pets').send({ name: 'Rex', categoryId: 42 });
      expect(response.status).toBe(201);
      expect(response.body).toMatchObject({ name: 'Rex', categoryId: 42, status: 'available' });
      await api.post('/v1/pets').send({ name: 'Max', categoryId: 42 }).expect(201);
      expect(await list()).toEqual([{ id: 42, name: null }]);
    });

    it('creates each new category once, however many pets name it at once', async () => {
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          api.post('/v1/pets').send({ name: `Pet ${i}`, categoryId: 100 + (i % 3) }),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(12).fill(201));
      expect(await list()).toEqual([
        { id: 100, name: null },
        { id: 101, name: null },
        { id: 102, name: null },
      ]);
    });

    it('is the database’s rule: a pet naming no category cannot be stored', async () => {
      await expect(
        t.dataSource.query(
          `INSERT INTO pets (name, category_id, status) VALUES ('Rex', 8, 'sold')`,
        ),
      ).rejects.toThrow(/foreign key/);
    });
  });
});
