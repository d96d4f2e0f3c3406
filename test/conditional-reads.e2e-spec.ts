import { randomUUID } from 'node:crypto';
import { expectError, request, Response } from './support/http';
import { resetDatabase, startTestApp, TestApp } from './support/test-app';
import { awayFromMinuteEnd } from './support/windows';

// The per-minute test may first wait for the next minute window (awayFromMinuteEnd).
jest.setTimeout(30_000);

/** What the key (or address) has left, which every answer here states. */
const ADMIN_TOKEN = 'admin-token-for-the-e2e-suite-0123456789';

const remaining = (response: Response) => {
  const value = response.headers['x-ratelimit-remaining'] as string | undefined;
  expect({ status: response.status, remaining: value }).toEqual({
    status: response.status,
    remaining: expect.stringMatching(/^[0-9]+$/),
  });
  return Number(value);
};

/**
 * CONTRACT.md "The first hour (v1.3)", conditional reads: the five reads carry an ETag; a request
 * whose If-None-Match names it is answered 304 without a body and costs the key nothing; every
 * other answer to it is counted, as every request without it is.
 */
describe('conditional reads', () => {
  let t: TestApp;
  let petId: number;

  beforeAll(async () => {
    t = await startTestApp({ ANONYMOUS_PER_MINUTE: '1000', ADMIN_TOKEN });
    await resetDatabase(t.dataSource);
    const created = await request(t.url)
      .post('/v1/pets')
      .set(t.auth)
      .send({ name: 'Rex', categoryId: 1 });
    expect(created.status).toBe(201);
    petId = created.body.id;
  });
  afterAll(() => t.close());

  const READS: [operation: string, path: () => string][] = [
    ['listPets', () => '/v1/pets'],
    ['getPet', () => `/v1/pets/${petId}`],
    ['listCategories', () => '/v1/categories'],
    ['getOrganization', () => '/v1/organizations/1'],
    ['listOrganizations', () => '/v1/organizations'],
  ];

  const reader = async (perMinute = 1000) =>
    (await t.issueKey({ scopes: ['pets:read'], limits: { perMinute, perDay: 100_000 } })).auth;
  const get = (path: string, auth: Record<string, string>, ifNoneMatch?: string) => {
    const test = request(t.url).get(path).set(auth);
    return ifNoneMatch === undefined ? test : test.set('if-none-match', ifNoneMatch);
  };

  describe.each(READS)('%s', (operation, path) => {
    it('gives an ETag; a matching If-None-Match is a 304 without a body, any number of which leave the budget as it was', async () => {
      await awayFromMinuteEnd();
      const auth = await reader();
      const first = await get(path(), auth);
      expect(first.status).toBe(200);
      const etag = first.headers.etag;
      expect(etag).toMatch(/^"[^"]+"$/);
      const before = remaining(first);

      for (const field of [etag, `W/${etag}`, `"other", ${etag}`, `W/"x",W/${etag} `, '*']) {
        const notModified = await get(path(), auth, field);
        expect({ operation, field, status: notModified.status }).toEqual({
          operation,
          field,
          status: 304,
        });
        expect(notModified.text ?? '').toBe('');
        expect(notModified.headers['content-length'] ?? '0').toBe('0');
        expect(notModified.headers.etag).toBe(etag);
        // The budget as it stands, read without counting.
        expect(remaining(notModified)).toBe(before);
        expect(notModified.headers.ratelimit).toMatch(new RegExp(`;r=${before};`));
      }

      // The next counted request is the second one counted.
      const again = await get(path(), auth);
      expect(again.status).toBe(200);
      expect(again.headers.etag).toBe(etag);
      expect(remaining(again)).toBe(before - 1);
      expect(again.headers.ratelimit).toMatch(new RegExp(`;r=${before - 1};`));

      // A tag that is not the current one: the whole answer, counted.
      const stale = await get(path(), auth, '"stale", W/"older"');
      expect(stale.status).toBe(200);
      expect(stale.body).toEqual(first.body);
      expect(stale.headers.etag).toBe(etag);
      expect(remaining(stale)).toBe(before - 2);
    });

    it('still needs a valid key: 401 without one, counted for the address as any request without a key', async () => {
      const { etag } = (await get(path(), t.auth)).headers;
      const missing = expectError(await get(path(), {}, etag), 401, 'unauthorized');
      const madeUp = expectError(
        await get(path(), { authorization: 'Bearer pet_test_made-up-key' }, etag),
        401,
        'unauthorized',
      );
      const missingAgain = expectError(await get(path(), {}, etag), 401, 'unauthorized');
      expect(remaining(missingAgain)).toBeLessThan(remaining(missing));
      expect(madeUp.headers.etag).toBeUndefined();
    });
  });

  it("leaves the day's budget as it was too, as the key's own usage says", async () => {
    const auth = await reader();
    const day = async () =>
      (await request(t.url).get('/v1/keys/self').set(auth).expect(200)).body.usage.day.remaining;
    const first = await get('/v1/pets', auth);
    const before = await day();
    for (let i = 0; i < 10; i++) {
      expect((await get('/v1/pets', auth, first.headers.etag)).status).toBe(304);
    }
    expect(await day()).toBe(before);
    expect((await get('/v1/pets', auth)).status).toBe(200);
    expect(await day()).toBe(before - 1);
  });

  it('answers HEAD as GET: the same ETag, 304 when it matches, uncounted', async () => {
    const auth = await reader();
    const read = await get('/v1/pets', auth);
    const head = await request(t.url).head('/v1/pets').set(auth);
    expect(head.status).toBe(200);
    expect(head.headers.etag).toBe(read.headers.etag);
    expect(remaining(head)).toBe(remaining(read) - 1);
    const notModified = await request(t.url)
      .head('/v1/pets')
      .set(auth)
      .set('if-none-match', read.headers.etag);
    expect(notModified.status).toBe(304);
    expect(remaining(notModified)).toBe(remaining(head));
  });

  it("agrees with If-Match: getPet's ETag is the animal's version", async () => {
    const pet = await get(`/v1/pets/${petId}`, t.auth);
    expect(pet.headers.etag).toBe(`"${pet.body.version}"`);
  });

  it('gives another ETag once the answer changes: a renamed animal, a new category, a changed organisation, a page that gained a next one', async () => {
    // An organisation of this test's own: organisations outlive a reset, and others read 1's.
    const name = `Conditional Rescue ${randomUUID().slice(0, 8)}`;
    const onboarded = await request(t.url)
      .post('/admin/organizations')
      .set({ authorization: `Bearer ${ADMIN_TOKEN}` })
      .send({
        name,
        email: 'adopt@conditional.example',
        address: { city: 'Leeds', country: 'GB' },
      });
    expect(onboarded.status).toBe(201);
    const organization = `/v1/organizations/${onboarded.body.id}`;
    // The page that lists it, however many organisations the run has made.
    const organizations = `/v1/organizations?name=${encodeURIComponent(name)}`;
    const auth = await reader();
    const tagOf = async (path: string) => (await get(path, auth)).headers.etag as string;
    const before = {
      pet: await tagOf(`/v1/pets/${petId}`),
      pets: await tagOf('/v1/pets'),
      firstPet: await tagOf('/v1/pets?limit=1'),
      categories: await tagOf('/v1/categories'),
      organization: await tagOf(organization),
      organizations: await tagOf(organizations),
    };

    const renamed = await request(t.url)
      .patch(`/v1/pets/${petId}`)
      .set(t.auth)
      .send({ name: `Rex ${Date.now()}` });
    expect(renamed.status).toBe(200);
    expect(await tagOf(`/v1/pets/${petId}`)).not.toBe(before.pet);
    expect(await tagOf('/v1/pets')).not.toBe(before.pets);
    const changedPage = await get('/v1/pets?limit=1', auth, before.firstPet);
    expect(changedPage.status).toBe(200);

    // The first page of one keeps its member, and gains a Link to the next: another answer.
    const firstPet = await tagOf('/v1/pets?limit=1');
    const second = await request(t.url)
      .post('/v1/pets')
      .set(t.auth)
      .send({ name: 'Tom', categoryId: 1 });
    expect(second.status).toBe(201);
    const withNext = await get('/v1/pets?limit=1', auth, firstPet);
    expect(withNext.status).toBe(200);
    expect(withNext.headers.link).toMatch(/rel="next"/);
    expect(withNext.headers.etag).not.toBe(firstPet);

    const category = await request(t.url)
      .put(`/v1/categories/${100 + (Date.now() % 1000)}`)
      .set(t.auth)
      .send({ name: `Ferrets ${Date.now()}` });
    expect(category.status).toBe(201);
    expect((await get('/v1/categories', auth, before.categories)).status).toBe(200);

    const staff = await t.issueKey({
      organizationId: String(onboarded.body.id),
      scopes: ['pets:read', 'organization:manage'],
    });
    const changed = await request(t.url)
      .patch(organization)
      .set(staff.auth)
      .send({ adoptionPolicy: `Visits first (${Date.now()})` });
    expect(changed.status).toBe(200);
    expect((await get(organization, auth, before.organization)).status).toBe(200);
    expect((await get(organizations, auth, before.organizations)).status).toBe(200);
  });

  it('answers a key at its per-minute limit 304s all the same, and 429 to a conditional request that does not match', async () => {
    await awayFromMinuteEnd(15);
    const auth = await reader(3);
    const first = await get('/v1/pets', auth);
    const { etag } = first.headers;
    expect((await get('/v1/pets', auth)).status).toBe(200);
    expect((await get('/v1/pets', auth)).status).toBe(200);
    expectError(await get('/v1/pets', auth), 429, 'rate_limited');
    for (let i = 0; i < 5; i++) {
      const notModified = await get('/v1/pets', auth, etag);
      expect(notModified.status).toBe(304);
      expect(remaining(notModified)).toBe(0);
    }
    const refused = expectError(await get('/v1/pets', auth, '"stale"'), 429, 'rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // An error answer is refused as well: the count settles first (a 404 here otherwise).
    expectError(await get('/v1/pets/999999', auth, '*'), 429, 'rate_limited');
    expect((await get(`/v1/pets/${petId}`, auth, `"${first.body[0].version}"`)).status).toBe(304);
  });

  it('counts an error answer to a conditional request: a 400, a 404, a 403 for want of the scope', async () => {
    const auth = await reader();
    const start = remaining(await get('/v1/pets', auth));
    const invalid = expectError(await get('/v1/pets?limit=0', auth, '*'), 400, 'validation_failed');
    expect(remaining(invalid)).toBe(start - 1);
    const missing = expectError(await get('/v1/pets/999999', auth, '*'), 404, 'not_found');
    expect(remaining(missing)).toBe(start - 2);
    expect(remaining(await get('/v1/pets', auth))).toBe(start - 3);

    const noScope = (
      await t.issueKey({ scopes: ['orders:read'], limits: { perMinute: 1000, perDay: 100_000 } })
    ).auth;
    const refused = expectError(await get('/v1/pets', noScope, '*'), 403, 'forbidden');
    const refusedAgain = expectError(await get('/v1/pets', noScope, '*'), 403, 'forbidden');
    expect(remaining(refusedAgain)).toBe(remaining(refused) - 1);
    // Counted before the scope is checked, as without If-None-Match: a spent key's is a 429.
    const spent = (
      await t.issueKey({ scopes: ['orders:read'], limits: { perMinute: 1, perDay: 100_000 } })
    ).auth;
    expectError(await get('/v1/pets', spent, '*'), 403, 'forbidden');
    expectError(await get('/v1/pets', spent, '*'), 429, 'rate_limited');
  });
});

describe('conditional reads of a removed operation', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ GET_PET_SUNSET: '2026-01-01T00:00:00Z' });
  });
  afterAll(() => t.close());

  it("counts getPet's 410 after its sunset, If-None-Match or not", async () => {
    await awayFromMinuteEnd();
    const { auth } = await t.issueKey({ limits: { perMinute: 1000, perDay: 100_000 } });
    const gone = async () =>
      expectError(
        await request(t.url).get('/v1/pets/1').set(auth).set('if-none-match', '*'),
        410,
        'gone',
      );
    const first = await gone();
    const second = await gone();
    expect(remaining(second)).toBe(remaining(first) - 1);
  });
});
