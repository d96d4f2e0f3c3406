import { randomUUID } from 'node:crypto';
import { apiClient, expectError } from './support/http';
import { resetDatabase, startTestApp, TestApp } from './support/test-app';

const BASE = 'https://pets.example/v1';
const ADMIN_TOKEN = 'pets-near-suite-admin-token-0123456789abcdef';

interface Animal {
  id: number;
  organizationId: number;
  distanceKm?: number;
}

/**
 * Finding animals near a point (CONTRACT.md "Finding": `near`, `radiusKm`, `sort=distance`): the
 * animals of the organisations within the radius of the point, each with its distance; nearest
 * first on request, with keyset pages that never repeat or skip one while animals are added.
 */
describe('GET /v1/pets?near=', () => {
  let t: TestApp;
  let admin: ReturnType<typeof apiClient>;
  let api: ReturnType<typeof apiClient>;
  /** Shelters around Bristol (51.4545, -2.5879), and one with no location. */
  const shelters: Record<string, { id: number; staff: ReturnType<typeof apiClient> }> = {};
  const PLACES: Record<string, { lat: number; lon: number } | null> = {
    bristol: { lat: 51.4545, lon: -2.5879 }, // 0 km
    bath: { lat: 51.3811, lon: -2.359 }, // about 18 km
    cardiff: { lat: 51.4816, lon: -3.1791 }, // about 41 km
    london: { lat: 51.5072, lon: -0.1276 }, // about 171 km
    // About 121 km: inside the box the index reads for 100 km, outside the radius.
    bridgnorth: { lat: 52.5345, lon: -2.4203 },
    nowhere: null,
  };
  const animalsOf: Record<string, number[]> = {};

  const follow = async (path: string, between?: () => Promise<unknown>) => {
    const seen: Animal[] = [];
    let next: string | undefined = path;
    while (next) {
      const page: { body: Animal[]; headers: Record<string, string> } = await api
        .get(next)
        .expect(200);
      seen.push(...page.body);
      const link: string | undefined = page.headers.link?.match(/^<([^>]+)>; rel="next"$/)?.[1];
      if (link) expect(link).toContain('near=');
      next = link?.replace(BASE, '/v1');
      if (between) await between();
    }
    return seen;
  };
  const addTo = async (place: string) => {
    const pet = (
      await shelters[place].staff.post('/v1/pets').send({ name: 'Rex', categoryId: 1 }).expect(201)
    ).body as Animal;
    (animalsOf[place] ??= []).push(pet.id);
    return pet;
  };

  beforeAll(async () => {
    t = await startTestApp({ ADMIN_TOKEN, PUBLIC_BASE_URL: BASE });
    await resetDatabase(t.dataSource);
    admin = apiClient(t.url, { authorization: `Bearer ${ADMIN_TOKEN}` });
    api = apiClient(t.url, t.auth);
    for (const [place, location] of Object.entries(PLACES)) {
      const created = await admin
        .post('/admin/organizations')
        .send({
          name: `${place} rescue ${randomUUID().slice(0, 8)}`,
          email: `${place}@rescue.example`,
          address: { city: place, country: 'GB' },
          ...(location ? { location } : {}),
        })
        .expect(201);
      const { auth } = await t.issueKey({
        organizationId: String(created.body.id),
        scopes: ['pets:read', 'pets:write'],
      });
      shelters[place] = { id: created.body.id, staff: apiClient(t.url, auth) };
    }
    // Interleaved, so that id order and distance order differ.
    for (let i = 0; i < 4; i++) for (const place of Object.keys(PLACES)) await addTo(place);
  });
  afterAll(() => t.close());

  it('finds the animals of the shelters within the radius, each with its distance, in id order', async () => {
    const seen = await follow('/v1/pets?near=51.4545,-2.5879&radiusKm=50&limit=3');
    const near = [...animalsOf.bristol, ...animalsOf.bath, ...animalsOf.cardiff];
    expect(seen.map(({ id }) => id)).toEqual([...near].sort((a, b) => a - b));
    const distance = (place: string) =>
      seen.find(({ organizationId }) => organizationId === shelters[place].id)!.distanceKm;
    expect(distance('bristol')).toBe(0);
    expect(distance('bath')).toBeGreaterThan(17);
    expect(distance('bath')).toBeLessThan(19);
    expect(distance('cardiff')).toBeGreaterThan(40);
    expect(distance('cardiff')).toBeLessThan(42);
    // 100 km by default: London (about 171 km) is out, and a shelter without a location never in.
    const byDefault = await follow('/v1/pets?near=51.4545,-2.5879&limit=100');
    expect(byDefault).toHaveLength(near.length);
    const nearestFirst = await follow('/v1/pets?near=51.4545,-2.5879&sort=distance&limit=5');
    expect(nearestFirst.map(({ id }) => id).sort((a, b) => a - b)).toEqual(
      [...near].sort((a, b) => a - b),
    );
    expect(await follow('/v1/pets?near=51.4545,-2.5879&radiusKm=200')).toHaveLength(
      near.length + animalsOf.london.length + animalsOf.bridgnorth.length,
    );
    // Without near, no distance.
    const [plain] = (await api.get('/v1/pets?limit=1').expect(200)).body;
    expect(plain).not.toHaveProperty('distanceKm');
  });

  it('sort=distance: nearest first (ties by the organisation, then the animal), never repeating or skipping one while animals are added', async () => {
    const expected = [
      ...[...animalsOf.bristol].sort((a, b) => a - b),
      ...[...animalsOf.bath].sort((a, b) => a - b),
      ...[...animalsOf.cardiff].sort((a, b) => a - b),
    ];
    let added = 0;
    const seen = await follow(
      '/v1/pets?near=51.4545,-2.5879&radiusKm=50&sort=distance&limit=3',
      () => addTo(['bath', 'london', 'cardiff'][added++ % 3]),
    );
    const ids = seen.map(({ id }) => id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter((id) => expected.includes(id))).toEqual(expected);
    const distances = seen.map(({ distanceKm }) => distanceKm!);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
  });

  it('combines with the other filters and orders', async () => {
    const seen = await follow(
      `/v1/pets?near=51.4545,-2.5879&radiusKm=50&organizationId=${shelters.bath.id}&sort=-createdAt`,
    );
    expect(seen.map(({ id }) => id)).toEqual([...animalsOf.bath].sort((a, b) => b - a));
    const shuffled = await follow('/v1/pets?near=51.4545,-2.5879&radiusKm=20&sort=random&seed=3');
    expect(shuffled.map(({ id }) => id).sort((a, b) => a - b)).toEqual(
      [...animalsOf.bristol, ...animalsOf.bath].sort((a, b) => a - b),
    );
  });

  it('is as strict as every listing parameter', async () => {
    for (const query of [
      'near=91,0',
      'near=51.4,-181',
      'near=51.4',
      'near=',
      'near=a,b',
      'radiusKm=10',
      'near=51,0&radiusKm=0',
      'near=51,0&radiusKm=501',
      'near=51,0&radiusKm=1.5',
      'sort=distance',
      'near=51,0&near=52,0',
    ]) {
      expectError(await api.get(`/v1/pets?${query}`), 400, 'validation_failed');
    }
  });
});
