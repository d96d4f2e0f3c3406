import { apiClient, expectError } from './support/http';
import { resetDatabase, startTestApp, TestApp } from './support/test-app';

const BASE = 'https://pets.example/v1';

/** The target of the Link rel="next" header, or undefined. */
const nextLink = (header: string | undefined) => header?.match(/^<([^>]+)>; rel="next"$/)?.[1];

/** GET /v1/pets filtered by categoryId and by a fragment of the name, with status and after. */
describe('GET /v1/pets?categoryId&name', () => {
  let t: TestApp;
  let api: ReturnType<typeof apiClient>;

  /** The pets of the suite, by id: names with the characters a pattern could misread. */
  const NAMES = [
    'Rex',
    'rexy',
    'T-Rex the 2nd',
    'Max',
    '100% Max',
    'Max_1',
    'Max-1',
    'C:\\Pets\\Tom',
    'C:Pets',
    'Éclair',
    'éCLAIR au chocolat',
    'Büro-Hund',
    'C:Petsy',
  ];
  const pets: { id: number; name: string; categoryId: number; status: string }[] = [];

  beforeAll(async () => {
    t = await startTestApp({ PUBLIC_BASE_URL: BASE });
    api = apiClient(t.url, t.auth);
    await resetDatabase(t.dataSource);
    for (const [i, name] of NAMES.entries()) {
      const status = (['available', 'pending', 'sold'] as const)[i % 3];
      const response = await api.post('/v1/pets').send({ name, categoryId: 1 + (i % 2), status });
      pets.push(response.body);
    }
  });
  afterAll(() => t.close());

  const names = async (query: string) =>
    (await api.get(`/v1/pets?limit=100&${query}`)).body.map((p: { name: string }) => p.name);

  it('finds a fragment anywhere in the name, whatever the case of either', async () => {
    expect(await names('name=rex')).toEqual(['Rex', 'rexy', 'T-Rex the 2nd']);
    expect(await names('name=REX')).toEqual(['Rex', 'rexy', 'T-Rex the 2nd']);
    expect(await names('name=x%20the')).toEqual(['T-Rex the 2nd']);
    expect(await names('name=tom')).toEqual(['C:\\Pets\\Tom']);
  });

  it('folds the case of letters beyond ASCII', async () => {
    expect(await names(`name=${encodeURIComponent('éclair')}`)).toEqual([
      'Éclair',
      'éCLAIR au chocolat',
    ]);
    expect(await names(`name=${encodeURIComponent('BÜRO')}`)).toEqual(['Büro-Hund']);
  });

  it.each([
    ['100%', ['100% Max']],
    ['ax_1', ['Max_1']],
    ['s\\Tom', ['C:\\Pets\\Tom']],
    ['Max_', ['Max_1']],
    ['100% M', ['100% Max']],
    ['C:\\Pe', ['C:\\Pets\\Tom']],
  ])('reads %j as the literal characters, not a pattern', async (fragment, expected) => {
    expect(await names(`name=${encodeURIComponent(fragment)}`)).toEqual(expected);
  });

  it.each(['ab', 'a.b', '%_%', '1-2', '🐕🐕🐕', 'x  y'])(
    'refuses %j, fewer than 3 letters or digits, with a 400 that says so',
    async (fragment) => {
      const response = await api.get(`/v1/pets?name=${encodeURIComponent(fragment)}`);
      expectError(response, 400, 'validation_failed');
      expect(response.body.message).toBe('name must hold at least 3 letters or digits');
    },
  );

  it('filters by category, and combines every filter', async () => {
    const ids = (body: { id: number }[]) => body.map((p) => p.id);
    const ofCategory2 = pets.filter((p) => p.categoryId === 2).map((p) => p.id);
    expect(ids((await api.get('/v1/pets?categoryId=2&limit=100')).body)).toEqual(ofCategory2);
    expect(await names('categoryId=1&name=max')).toEqual(['100% Max', 'Max-1']);
    expect(await names('categoryId=2&name=max&status=available')).toEqual(['Max']);
    expect(await names('categoryId=3')).toEqual([]);
    expect(await names('name=zebra')).toEqual([]);
  });

  it('walks the pages of a filtered list by its next links, without gaps or repeats', async () => {
    for (const query of [
      'name=max&limit=2',
      'categoryId=1&limit=3',
      'name=max&categoryId=2&limit=1',
    ]) {
      const filters = new URLSearchParams(query);
      const expected = pets
        .filter(
          (p) =>
            (!filters.has('name') ||
              p.name.toLowerCase().includes(filters.get('name')!.toLowerCase())) &&
            (!filters.has('categoryId') || p.categoryId === Number(filters.get('categoryId'))),
        )
        .map((p) => p.id);
      const seen: number[] = [];
      let path: string | undefined = `/v1/pets?${query}`;
      while (path) {
        const response = await api.get(path);
        expect(response.status).toBe(200);
        seen.push(...response.body.map((p: { id: number }) => p.id));
        const link = nextLink(response.headers.link);
        if (link) {
          const carried = new URL(link).searchParams;
          for (const [name, value] of filters) expect(carried.get(name)).toBe(value);
        }
        path = link?.replace(BASE, '/v1');
      }
      expect(seen).toEqual(expected);
    }
  });

  it('carries a name with reserved characters in the next link, encoded', async () => {
    const response = await api.get(`/v1/pets?limit=1&name=${encodeURIComponent('c:pe')}`);
    expect(response.body.map((p: { name: string }) => p.name)).toEqual(['C:Pets']);
    const link = nextLink(response.headers.link)!;
    expect(new URL(link).searchParams.get('name')).toBe('c:pe');
    const next = await api.get(link.replace(BASE, '/v1'));
    expect(next.body.map((p: { name: string }) => p.name)).toEqual(['C:Petsy']);
  });

  it.each([
    'categoryId=0',
    'categoryId=-1',
    'categoryId=1.5',
    'categoryId=abc',
    'categoryId=',
    'categoryId=9007199254740992',
    'categoryId=1&categoryId=2',
    'name=',
    'name=%20%20',
    `name=${'x'.repeat(101)}`,
    'name=a%00b',
    'name=a&name=b',
  ])('refuses %s with a 400', async (query) => {
    expectError(await api.get(`/v1/pets?${query}`), 400, 'validation_failed');
  });

  it('accepts a name of 100 characters, and the largest category id', async () => {
    expect(await names(`name=${'x'.repeat(100)}`)).toEqual([]);
    expect(await names('categoryId=9007199254740991')).toEqual([]);
  });
});
