import { apiClient, expectError } from './support/http';
import { resetDatabase, startTestApp, TestApp } from './support/test-app';
import { petBody } from './support/pets';

const BASE = 'https://pets.example/v1';

/** The target of the Link rel="next" header, or undefined. */
function nextLink(header: string | undefined): string | undefined {
  return header?.match(/^<([^>]+)>; rel="next"$/)?.[1];
}

describe('GET /v1/pets', () => {
  let t: TestApp;
  let api: ReturnType<typeof apiClient>;
  const statusOf = (i: number) => (['available', 'pending', 'sold'] as const)[i % 3];

  beforeAll(async () => {
    t = await startTestApp({ PUBLIC_BASE_URL: BASE });
    api = apiClient(t.url, t.auth);
    await resetDatabase(t.dataSource);
    // 45 pets: ids 1..45, statuses cycling available, pending, sold from id 1 (pending) on.
    for (let i = 1; i <= 45; i++) {
      const response = await api
        .post('/v1/pets')
        .send({ name: `pet ${i}`, categoryId: i, status: statusOf(i) });
      expect(response.status).toBe(201);
    }
  });
  afterAll(() => t.close());

  it('returns the first 20 pets in ascending id order by default, with a next link', async () => {
    const response = await api.get('/v1/pets');
    expect(response.status).toBe(200);
    expect(response.body.map((p: { id: number }) => p.id)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
    expect(response.body[0]).toEqual(
      petBody({ id: 1, name: 'pet 1', categoryId: 1, status: 'pending' }),
    );
    expect(nextLink(response.headers.link)).toBe(`${BASE}/pets?after=20`);
  });

  it('returns up to 100 pets and no next link on the last page', async () => {
    const response = await api.get('/v1/pets?limit=100');
    expect(response.body).toHaveLength(45);
    expect(response.headers.link).toBeUndefined();
  });

  it('has no next link when the last page is exactly full', async () => {
    const response = await api.get('/v1/pets?limit=5&after=40');
    expect(response.body.map((p: { id: number }) => p.id)).toEqual([41, 42, 43, 44, 45]);
    expect(response.headers.link).toBeUndefined();
  });

  it('walks every page by following the next links, keeping limit and status', async () => {
    const seen: number[] = [];
    let path: string | undefined = '/v1/pets?limit=4&status=sold';
    let pages = 0;
    while (path) {
      const response = await api.get(path);
      expect(response.status).toBe(200);
      for (const pet of response.body) {
        expect(pet.status).toBe('sold');
        seen.push(pet.id);
      }
      const link = nextLink(response.headers.link);
      if (link)
        expect(link).toMatch(/^https:\/\/pets\.example\/v1\/pets\?limit=4&status=sold&after=\d+$/);
      path = link?.replace(BASE, '/v1');
      pages++;
    }
    const expected = Array.from({ length: 45 }, (_, i) => i + 1).filter(
      (id) => statusOf(id) === 'sold',
    );
    expect(seen).toEqual(expected);
    expect(pages).toBe(Math.ceil(expected.length / 4));
  });

  it('returns nothing after the last id, and accepts after=0', async () => {
    expect((await api.get('/v1/pets?after=45')).body).toEqual([]);
    expect((await api.get('/v1/pets?after=9223372036854775807')).body).toEqual([]);
    expect((await api.get('/v1/pets?after=0&limit=1')).body[0].id).toBe(1);
  });

  it.each(['available', 'pending', 'sold'])('filters by status=%s', async (status) => {
    const response = await api.get(`/v1/pets?status=${status}&limit=100`);
    expect(response.body).toHaveLength(15);
    expect(response.body.every((p: { status: string }) => p.status === status)).toBe(true);
  });

  it.each([
    ['limit=0', /limit/],
    ['limit=101', /limit/],
    ['limit=-1', /limit/],
    ['limit=1.5', /limit/],
    ['limit=abc', /limit/],
    ['limit=', /limit/],
    ['limit=05', /limit/],
    ['limit=2&limit=3', /limit/],
    ['status=lost', /status/],
    ['status=', /status/],
    ['status=sold&status=pending', /status/],
    ['after=-1', /after/],
    ['after=abc', /after/],
    ['after=1.5', /after/],
    ['after=9223372036854775808', /after/],
    ['colour=red', /colour/],
  ])('answers 400 validation_failed to ?%s, naming the parameter', async (query, field) => {
    const response = expectError(await api.get(`/v1/pets?${query}`), 400, 'validation_failed');
    expect(response.body.message).toMatch(field);
  });
});
