import { apiClient, expectError } from './support/http';
import { resetDatabase, startTestApp, TestApp } from './support/test-app';
import { petBody } from './support/pets';

describe('POST /v1/pets', () => {
  let t: TestApp;
  let api: ReturnType<typeof apiClient>;

  beforeAll(async () => {
    t = await startTestApp({ PUBLIC_BASE_URL: 'https://pets.example/v1' });
    api = apiClient(t.url, t.auth);
  });
  beforeEach(() => resetDatabase(t.dataSource));
  afterAll(() => t.close());

  const countPets = async () =>
    Number((await t.dataSource.query('SELECT count(*) FROM pets'))[0].count);
  const postRaw = (body: string, type = 'application/json') =>
    api.post('/v1/pets').set('content-type', type).send(body);

  it('answers 201 with the pet, its new id, the default status and its Location', async () => {
    const response = await api.post('/v1/pets').send({ name: 'Rex', categoryId: 7 });
    expect(response.status).toBe(201);
    expect(response.body).toEqual(
      petBody({ id: 1, name: 'Rex', categoryId: 7, status: 'available' }),
    );
    expect(response.headers.etag).toBe('"1"');
    expect(response.headers.location).toBe('https://pets.example/v1/pets/1');
    expect(response.headers['content-type']).toMatch(/^application\/json/);
  });

  it('keeps a given status and the largest exact category id', async () => {
    const response = await api
      .post('/v1/pets')
      .send({ name: 'Tom', categoryId: 9007199254740991, status: 'pending' });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ categoryId: 9007199254740991, status: 'pending' });
    const [row] = await t.dataSource.query('SELECT category_id FROM pets WHERE id = $1', [
      response.body.id,
    ]);
    expect(row.category_id).toBe('9007199254740991');
  });

  it('assigns increasing ids that are never reused', async () => {
    const first = await api.post('/v1/pets').send({ name: 'A', categoryId: 1 });
    await t.dataSource.query('DELETE FROM pets');
    const second = await api.post('/v1/pets').send({ name: 'B', categoryId: 1 });
    expect(second.body.id).toBeGreaterThan(first.body.id);
  });

  it('accepts a name of 100 characters with surrounding spaces kept', async () => {
    const name = ` ${'x'.repeat(98)} `;
    const response = await api.post('/v1/pets').send({ name, categoryId: 1 });
    expect(response.status).toBe(201);
    expect(response.body.name).toBe(name);
  });

  describe.each([
    ['no name', { categoryId: 1 }, /name/],
    ['no categoryId', { name: 'Rex' }, /categoryId/],
    ['an empty name', { name: '', categoryId: 1 }, /name/],
    ['a white-space name', { name: ' \t ', categoryId: 1 }, /name/],
    ['a 101-character name', { name: 'x'.repeat(101), categoryId: 1 }, /name/],
    ['a numeric name', { name: 5, categoryId: 1 }, /name/],
    ['a string categoryId', { name: 'Rex', categoryId: '5' }, /categoryId/],
    ['a fractional categoryId', { name: 'Rex', categoryId: 1.5 }, /categoryId/],
    ['a zero categoryId', { name: 'Rex', categoryId: 0 }, /categoryId/],
    ['a negative categoryId', { name: 'Rex', categoryId: -1 }, /categoryId/],
    ['a null categoryId', { name: 'Rex', categoryId: null }, /categoryId/],
    ['a categoryId of 2^53', { name: 'Rex', categoryId: 9007199254740992 }, /categoryId/],
    ['an unknown status', { name: 'Rex', categoryId: 1, status: 'lost' }, /status/],
    ['a null status', { name: 'Rex', categoryId: 1, status: null }, /status/],
    ['an id', { id: 5, name: 'Rex', categoryId: 1 }, /^id is not a field/],
    [
      'an unknown property',
      { name: 'Rex', categoryId: 1, colour: 'red' },
      /^colour is not a field/,
    ],
    [
      'a prototype property',
      { name: 'Rex', categoryId: 1, prototype: 1 },
      /^prototype is not a field/,
    ],
    [
      'a constructor property',
      { name: 'Rex', categoryId: 1, constructor: 'x' },
      /^constructor is not a field/,
    ],
    [
      'a toString property',
      { name: 'Rex', categoryId: 1, toString: 1 },
      /^toString is not a field/,
    ],
    ['a valueOf property', { name: 'Rex', categoryId: 1, valueOf: 'x' }, /^valueOf is not a field/],
  ])('a body with %s', (_, body, field) => {
    it('is a 400 validation_failed naming the field, and stores nothing', async () => {
      const response = await api.post('/v1/pets').send(body);
      expectError(response, 400, 'validation_failed');
      expect(response.body.message).toMatch(field);
      expect(await countPets()).toBe(0);
    });
  });

  it('refuses an integer too large to be exact rather than rounding it', async () => {
    const response = await postRaw('{"name":"Rex","categoryId":9007199254740993}');
    expectError(response, 400, 'validation_failed');
    expect(response.body.message).toMatch(/categoryId/);
  });

  it.each([
    ['an array', '[{"name":"Rex","categoryId":1}]'],
    ['a string', '"Rex"'],
    ['null', 'null'],
    ['a number', '42'],
  ])('refuses %s as the body with a 400', async (_, body) => {
    expectError(await postRaw(body), 400, 'validation_failed');
    expect(await countPets()).toBe(0);
  });

  it('refuses a missing body with a 400', async () => {
    expectError(await api.post('/v1/pets'), 400, 'validation_failed');
  });

  it.each([
    ['__proto__', '{"name":"Rex","categoryId":1,"__proto__":{"admin":true}}'],
    ['constructor.prototype', '{"name":"Rex","categoryId":1,"constructor":{"prototype":{}}}'],
  ])('refuses a %s key with a 400', async (_, body) => {
    const response = expectError(await postRaw(body), 400, 'validation_failed');
    expect(response.body.message).toMatch(/__proto__/);
  });

  it.each(['{"name":', '{name: "Rex"}', '', "{'a':1}"])(
    'answers 400 malformed_json to %j',
    async (body) => {
      expectError(await postRaw(body), 400, 'malformed_json');
    },
  );

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'application/xml'])(
    'answers 415 to a %s body',
    async (type) => {
      expectError(await postRaw('name=Rex&categoryId=1', type), 415, 'unsupported_media_type');
      expect(await countPets()).toBe(0);
    },
  );

  it('accepts application/json with a charset', async () => {
    const response = await postRaw(
      '{"name":"Rex","categoryId":1}',
      'application/json; charset=utf-8',
    );
    expect(response.status).toBe(201);
  });

  it('answers 413 to a body over 16 KiB, and accepts one just under', async () => {
    const padding = (size: number) =>
      JSON.stringify({ name: 'Rex', categoryId: 1, pad: 'x'.repeat(size) });
    expectError(await postRaw(padding(16 * 1024)), 413, 'payload_too_large');
    // Under the limit, the unknown property is what is refused: the size was accepted.
    expectError(await postRaw(padding(16 * 1024 - 60)), 400, 'validation_failed');
  });

  it('answers 413 to a body over the hard limit before reading it', async () => {
    const body = JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024), categoryId: 1 });
    expectError(await postRaw(body), 413, 'payload_too_large');
  });
});
