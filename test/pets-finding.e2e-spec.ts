import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { apiClient, expectError } from './support/http';
import { resetDatabase, startTestApp, TestApp } from './support/test-app';

const BASE = 'https://pets.example/v1';
const ADMIN_TOKEN = 'finding-suite-admin-token-0123456789abcdef';

/** The target of the Link rel="next" header, or undefined. */
const nextLink = (header: string | undefined) => header?.match(/^<([^>]+)>; rel="next"$/)?.[1];

interface Animal {
  id: number;
  status: string;
  organizationId: number;
  breed: { primary: string | null; secondary: string | null };
  age: string | null;
  sex: string | null;
  size: string | null;
  attributes: { houseTrained: boolean | null; specialNeeds: boolean | null };
  environment: Record<'children' | 'dogs' | 'cats', boolean | null>;
}

/**
 * Finding animals (CONTRACT.md "Animals worth adopting (v1.3)", "Finding"; docs/api.md,
 * "Listing"): every filter, combinable, as strict as every listing parameter, carried in `Link`.
 * The answers are compared with the same filters applied to the animals as the API answered them.
 */
describe('GET /v1/pets: finding by organisation and profile', () => {
  let t: TestApp;
  let api: ReturnType<typeof apiClient>;
  const animals: Animal[] = [];

  beforeAll(async () => {
    t = await startTestApp({ ADMIN_TOKEN, PUBLIC_BASE_URL: BASE });
    await resetDatabase(t.dataSource);
    api = apiClient(t.url, t.auth);
    const admin = apiClient(t.url, { authorization: `Bearer ${ADMIN_TOKEN}` });
    const other = await admin.post('/admin/organizations').send({
      name: `Moor Rescue ${randomUUID().slice(0, 8)}`,
      email: 'adopt@moor.example',
      address: { city: 'York', country: 'GB' },
    });
    const moor = apiClient(
      t.url,
      (await t.issueKey({ organizationId: String(other.body.id), scopes: ['pets:write'] })).auth,
    );
    const breeds = [
      { primary: 'Labrador Retriever', secondary: null },
      { primary: 'Collie', secondary: 'labrador retriever' },
      { primary: 'Beagle', secondary: null },
      { primary: null, secondary: null },
    ];
    const flags = [true, false, null];
    for (let i = 0; i < 36; i++) {
      const body = {
        name: `Pet ${i}`,
        categoryId: 1,
        status: ['available', 'pending', 'sold'][i % 3],
        breed: breeds[i % 4],
        age: ['baby', 'young', 'adult', 'senior', null][i % 5],
        sex: ['female', 'male', 'unknown', null][i % 4],
        size: ['small', 'medium', 'large', 'xlarge', null][(i * 7) % 5],
        attributes: { houseTrained: flags[i % 3], specialNeeds: flags[(i + 1) % 3] },
        environment: { children: flags[i % 3], dogs: flags[((i / 3) % 3) | 0], cats: flags[i % 2] },
      };
      const response = await (i % 4 === 3 ? moor : api).post('/v1/pets').send(body);
      expect(response.status).toBe(201);
      animals.push(response.body);
    }
  });
  afterAll(() => t.close());

  /** The ids the filters of `query` let through, as the contract says, in id order. */
  function expected(query: Record<string, string>): number[] {
    const list = (name: string) => query[name]?.split(',');
    return animals
      .filter((a) => {
        const breed = query.breed?.toLowerCase();
        return (
          (!list('status') || list('status')!.includes(a.status)) &&
          (!query.organizationId || a.organizationId === Number(query.organizationId)) &&
          (!breed ||
            a.breed.primary?.toLowerCase() === breed ||
            a.breed.secondary?.toLowerCase() === breed) &&
          (!list('age') || list('age')!.includes(a.age!)) &&
          (!list('sex') || list('sex')!.includes(a.sex!)) &&
          (!list('size') || list('size')!.includes(a.size!)) &&
          (list('goodWith') ?? []).every((word) => a.environment[word as 'dogs'] === true) &&
          (!query.houseTrained || a.attributes.houseTrained === (query.houseTrained === 'true')) &&
          (!query.specialNeeds || a.attributes.specialNeeds === (query.specialNeeds === 'true'))
        );
      })
      .map((a) => a.id);
  }

  /** Every page of a query, by its `Link`s: the ids, and the query each link carried. */
  async function follow(query: Record<string, string>) {
    const ids: number[] = [];
    const carried: Record<string, string>[] = [];
    let path: string | undefined = `/v1/pets?${new URLSearchParams(query)}`;
    while (path) {
      const response = await api.get(path);
      expect({ path, status: response.status }).toEqual({ path, status: 200 });
      ids.push(...response.body.map((pet: { id: number }) => pet.id));
      const link = nextLink(response.headers.link);
      if (link) carried.push(Object.fromEntries(new URL(link).searchParams));
      path = link?.replace(BASE, '/v1');
    }
    return { ids, carried };
  }

  it.each<Record<string, string>>([
    { status: 'available,pending' },
    { organizationId: '1' },
    { breed: 'LABRADOR retriever' },
    { age: 'baby,senior' },
    { sex: 'unknown' },
    { size: 'large,xlarge' },
    { goodWith: 'children' },
    { goodWith: 'dogs,children' },
    { houseTrained: 'true' },
    { specialNeeds: 'false' },
    { status: 'available', goodWith: 'cats', sex: 'female,male' },
  ])('finds %j, and walks its pages by their links without repeats or gaps', async (query) => {
    const all = await follow(query);
    expect(all.ids).toEqual(expected(query));
    expect(all.ids.length).toBeGreaterThan(0);
    const paged = await follow({ ...query, limit: '2' });
    expect(paged.ids).toEqual(all.ids);
    for (const carried of paged.carried) expect(carried).toMatchObject({ ...query, limit: '2' });
  });

  it('answers every combination of the filters as the contract says', async () => {
    const choose = (values: string[]) =>
      fc.subarray(values, { minLength: 1 }).map((picked) => picked.join(','));
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            status: choose(['available', 'pending', 'sold']),
            organizationId: fc.constantFrom('1', String(animals[3].organizationId)),
            breed: fc.constantFrom('collie', 'Labrador Retriever', 'poodle'),
            age: choose(['baby', 'young', 'adult', 'senior']),
            sex: choose(['female', 'male', 'unknown']),
            size: choose(['small', 'medium', 'large', 'xlarge']),
            goodWith: choose(['children', 'dogs', 'cats']),
            houseTrained: fc.constantFrom('true', 'false'),
            specialNeeds: fc.constantFrom('true', 'false'),
          },
          { requiredKeys: [] },
        ),
        async (query) => {
          expect((await follow(query)).ids).toEqual(expected(query));
        },
      ),
      { numRuns: 40, seed: 34 },
    );
  });

  it.each([
    'status=available,,pending',
    'status=available,available',
    'status=',
    'status=lost',
    'age=adult,',
    'age=puppy',
    'sex=F',
    'size=huge',
    'goodWith=birds',
    'goodWith=children&goodWith=dogs',
    'houseTrained=yes',
    'specialNeeds=1',
    'organizationId=0',
    'organizationId=abc',
    'breed=',
    `breed=${'b'.repeat(51)}`,
    'breed=a%00b',
  ])('refuses %s with a 400 naming the parameter', async (query) => {
    const response = expectError(await api.get(`/v1/pets?${query}`), 400, 'validation_failed');
    const parameter = query.split('=')[0];
    expect(response.body.details.map((d: { field: string }) => d.field)).toContain(parameter);
  });

  it('keeps a v1 listing as it was: one status, no profile filter', async () => {
    const { ids } = await follow({ status: 'sold' });
    expect(ids).toEqual(animals.filter((a) => a.status === 'sold').map((a) => a.id));
  });
});
