import { apiClient, expectError } from './support/http';
import { resetDatabase, startTestApp, TestApp } from './support/test-app';

const BASE = 'https://pets.example/v1';

interface Animal {
  id: number;
  name: string;
  status: string;
  createdAt: string;
}

/**
 * The orders of a listing (CONTRACT.md "Animals worth adopting (v1.3)", "Finding": `sort`):
 * newest first, by name, shuffled by a seed; keyset pages under each, which never repeat or skip an
 * animal while animals are added; carried in `Link`, combinable with every filter, strict.
 */
describe('GET /v1/pets?sort=', () => {
  let t: TestApp;
  let api: ReturnType<typeof apiClient>;
  let added = 0;
  const NAMES = ['Rex', 'Ada', 'Max', 'Bella', 'ada', 'Zed', 'Max'];

  const add = async (status = 'available') => {
    const name = NAMES[added++ % NAMES.length];
    return (await api.post('/v1/pets').send({ name, categoryId: 1, status }).expect(201))
      .body as Animal;
  };
  /** Every page from `path` on, following `Link`, adding an animal after each page. */
  const follow = async (path: string, addBetween = true) => {
    const seen: Animal[] = [];
    let next: string | undefined = path;
    const links: string[] = [];
    while (next) {
      const page: { body: Animal[]; headers: Record<string, string> } = await api
        .get(next)
        .expect(200);
      seen.push(...page.body);
      const link: string | undefined = (page.headers.link as string | undefined)?.match(
        /^<([^>]+)>; rel="next"$/,
      )?.[1];
      if (link) links.push(link);
      next = link?.replace(BASE, '/v1');
      if (addBetween) await add();
    }
    return { seen, links };
  };
  /** The live animals in the database's own order for `orderBy`. */
  const inOrder = async (orderBy: string, where = 'TRUE') =>
    (
      await t.dataSource.query(
        `SELECT id FROM pets WHERE deleted_at IS NULL AND ${where} ORDER BY ${orderBy}`,
      )
    ).map((row: { id: string }) => Number(row.id));

  beforeAll(async () => {
    t = await startTestApp({ PUBLIC_BASE_URL: BASE });
    await resetDatabase(t.dataSource);
    api = apiClient(t.url, t.auth);
    for (let i = 0; i < 24; i++) await add(['available', 'pending', 'sold'][i % 3]);
  });
  afterAll(() => t.close());

  it.each([
    ['-createdAt', 'created_at DESC, id DESC'],
    ['name', 'name, id'],
  ])(
    'sort=%s: pages in that order, every animal there at the start once, while animals are added',
    async (sort, orderBy) => {
      const before = await inOrder(orderBy);
      const { seen, links } = await follow(`/v1/pets?sort=${sort}&limit=5`);
      const ids = seen.map(({ id }) => id);
      expect(new Set(ids).size).toBe(ids.length);
      // Added while paging: after the pages read (newest first) or wherever their name falls.
      expect(ids.filter((id) => before.includes(id))).toEqual(before);
      for (const link of links) expect(link).toContain(`sort=${encodeURIComponent(sort)}`);
    },
  );

  it('sort=random: one seed, one order on every page and every time; another seed, another', async () => {
    const everyone = await inOrder('id');
    const read = async (seed: number) =>
      (await follow(`/v1/pets?sort=random&seed=${seed}&limit=7`, false)).seen.map(({ id }) => id);
    const once = await read(42);
    expect([...once].sort((a, b) => a - b)).toEqual(everyone);
    expect(await read(42)).toEqual(once);
    expect(once).not.toEqual(everyone);
    expect(await read(43)).not.toEqual(once);
    // Animals added while paging never make a page repeat or skip one there at the start.
    const { seen } = await follow('/v1/pets?sort=random&seed=42&limit=7');
    const ids = seen.map(({ id }) => id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter((id) => everyone.includes(id))).toEqual(once);
  });

  it('sort=random without a seed: the service picks one, and Link carries it', async () => {
    const page = await api.get('/v1/pets?sort=random&limit=3').expect(200);
    const link = page.headers.link as string;
    const seed = /[?&]seed=(\d+)/.exec(link)?.[1];
    expect(seed).toBeDefined();
    const again = await api.get(`/v1/pets?sort=random&seed=${seed}&limit=3`).expect(200);
    expect(again.body.map((a: Animal) => a.id)).toEqual(page.body.map((a: Animal) => a.id));
  });

  it('combines with every filter: sort=name&status=available', async () => {
    const { seen } = await follow('/v1/pets?sort=name&status=available&limit=4', false);
    expect(seen.map(({ id }) => id)).toEqual(await inOrder('name, id', `status = 'available'`));
    const shuffled = await follow('/v1/pets?sort=random&seed=9&status=pending,sold&limit=4', false);
    expect(shuffled.seen.every(({ status }) => status !== 'available')).toBe(true);
    expect(shuffled.seen).toHaveLength((await inOrder('id', `status <> 'available'`)).length);
  });

  it('is as strict as every listing parameter', async () => {
    for (const query of [
      'sort=newest',
      'sort=',
      'sort=name&sort=id',
      'sort=distance',
      'seed=3',
      'sort=name&seed=3',
      'sort=random&seed=-1',
      'sort=random&seed=2147483648',
      'sort=random&seed=1.5',
    ]) {
      expectError(await api.get(`/v1/pets?${query}`), 400, 'validation_failed');
    }
    expect((await api.get('/v1/pets?sort=id&limit=2').expect(200)).body).toHaveLength(2);
  });
});
