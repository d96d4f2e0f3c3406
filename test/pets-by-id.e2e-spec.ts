import { apiClient, expectError } from './support/http';
import { resetDatabase, startTestApp, TestApp } from './support/test-app';

const BASE = 'https://pets.example/v1';

/** The target of the Link rel="next" header, or undefined. */
const nextLink = (header: string | undefined) => header?.match(/^<([^>]+)>; rel="next"$/)?.[1];

const idsOf = (body: { id: number }[]) => body.map(({ id }) => id);

/**
 * `GET /v1/pets?id=1,2,3` (CONTRACT.md "Fast feedback (v1.4)"; docs/api.md "Listing"): the
 * stable way to fetch animals by id, a filter of the listing like any other: ascending ids (or
 * `sort`'s order), repeats folded, at most 100, combined with the other filters, and exactly the
 * animals the listing shows.
 */
describe('GET /v1/pets?id=: animals by id', () => {
  let t: TestApp;
  let api: ReturnType<typeof apiClient>;
  const ids: number[] = [];

  beforeAll(async () => {
    t = await startTestApp({ PUBLIC_BASE_URL: BASE });
    await resetDatabase(t.dataSource);
    api = apiClient(t.url, t.auth);
    for (const name of ['Rex', 'Bella', 'Tom', 'Ada', 'Zed', 'Moss']) {
      ids.push((await api.post('/v1/pets').send({ name, categoryId: 1 }).expect(201)).body.id);
    }
  });
  afterAll(() => t.close());

  it('answers the animals named, in ascending id whatever the order asked, each once', async () => {
    const [a, b, c] = ids;
    const response = await api.get(`/v1/pets?id=${c},${a},${b},${a},${c}`);
    expect(response.status).toBe(200);
    expect(idsOf(response.body)).toEqual([a, b, c]);
    // The whole animal, as the listing answers it.
    const listed = await api.get('/v1/pets');
    expect(response.body).toEqual(listed.body.filter(({ id }: { id: number }) => id <= c));
    expect(response.headers.link).toBeUndefined();
  });

  it('leaves out an id that names no animal, and a deleted one, as the listing does', async () => {
    const [a, , , , , removed] = ids;
    await api.delete(`/v1/pets/${removed}`).expect(204);
    const response = await api.get(`/v1/pets?id=${removed},999999,${a}`);
    expect(response.status).toBe(200);
    expect(idsOf(response.body)).toEqual([a]);
    expect((await api.get('/v1/pets?id=999999')).body).toEqual([]);
  });

  it('combines with every other filter, and follows sort', async () => {
    const [a, b, c, d] = ids;
    await api.patch(`/v1/pets/${b}`).send({ status: 'pending' }).expect(200);
    const available = await api.get(`/v1/pets?id=${a},${b},${c}&status=available`);
    expect(idsOf(available.body)).toEqual([a, c]);
    const named = await api.get(`/v1/pets?id=${a},${b},${c},${d}&name=ada`);
    expect(idsOf(named.body)).toEqual([d]);
    // Rex, Bella, Tom, Ada by name: Ada, Bella, Rex, Tom.
    const byName = await api.get(`/v1/pets?id=${a},${b},${c},${d}&sort=name`);
    expect(idsOf(byName.body)).toEqual([d, b, a, c]);
  });

  it('gives every animal named in one page without limit; a smaller limit pages with the ids in Link', async () => {
    const live = ids.slice(0, 5);
    expect(idsOf((await api.get(`/v1/pets?id=${live.join(',')}`)).body)).toEqual(live);
    const first = await api.get(`/v1/pets?id=${live.join(',')}&limit=2`);
    expect(idsOf(first.body)).toEqual(live.slice(0, 2));
    const next = nextLink(first.headers.link)!;
    expect(next).toBe(`${BASE}/pets?limit=2&id=${live.join('%2C')}&after=${live[1]}`);
    const second = await api.get(next.replace(BASE, '/v1'));
    expect(idsOf(second.body)).toEqual(live.slice(2, 4));
  });

  it('takes 100 ids, and refuses 101 with validation_failed naming id', async () => {
    const hundred = Array.from({ length: 100 }, (_, i) => ids[0] + i);
    const taken = await api.get(`/v1/pets?id=${hundred.join(',')}`);
    expect(taken.status).toBe(200);
    expect(idsOf(taken.body)).toEqual(ids.slice(0, 5));
    const refused = expectError(
      await api.get(`/v1/pets?id=${[...hundred, ids[0] + 100].join(',')}`),
      400,
      'validation_failed',
    );
    expect(refused.body.details).toEqual([
      { field: 'id', issue: 'range', message: 'id names at most 100 ids (101 given)' },
    ]);
  });

  it.each([
    ['x', 'format'],
    ['1,,2', 'format'],
    ['1.5', 'format'],
    ['-1', 'format'],
    ['0', 'range'],
    ['9007199254740992', 'range'],
    ['', 'format'],
  ])('refuses id=%j as validation_failed (%s)', async (given, issue) => {
    const refused = expectError(
      await api.get(`/v1/pets?id=${encodeURIComponent(given)}`),
      400,
      'validation_failed',
    );
    expect(refused.body.details).toEqual([
      {
        field: 'id',
        issue,
        message: 'id must be one or more ids from 1 to 9007199254740991, comma-separated',
      },
    ]);
  });

  it('refuses id given twice, as every filter', async () => {
    const refused = expectError(
      await api.get(`/v1/pets?id=${ids[0]}&id=${ids[1]}`),
      400,
      'validation_failed',
    );
    expect(refused.body.details).toEqual([expect.objectContaining({ field: 'id', issue: 'type' })]);
  });

  it('shows any key with pets:read the animals of every organisation, as the listing does', async () => {
    const reader = apiClient(t.url, (await t.issueKey({ scopes: ['pets:read'] })).auth);
    const [a, b] = ids;
    expect(idsOf((await reader.get(`/v1/pets?id=${a},${b}`)).body)).toEqual([a, b]);
    const writer = apiClient(t.url, (await t.issueKey({ scopes: ['pets:write'] })).auth);
    expectError(await writer.get(`/v1/pets?id=${a}`), 403, 'forbidden');
  });
});
