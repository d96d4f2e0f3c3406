import { RateLimitClock } from '@pet-adoption/rate-limit';
import {
  CategoryUpdate,
  createPetAdoptionClient,
  NewOrder,
  NewPet,
  pages,
  PetUpdate,
  updateWithETag,
} from '../clients/typescript/src';
import { petBody } from './support/pets';
import { databaseProxy, TcpProxy } from './support/tcp-proxy';
import { resetDatabase, startTestApp, TestApp } from './support/test-app';

/** A fetch that counts the requests it sends and the statuses it gets back. */
function countingFetch() {
  const statuses: number[] = [];
  const fetch = async (...args: Parameters<typeof globalThis.fetch>) => {
    const response = await globalThis.fetch(...args);
    statuses.push(response.status);
    return response;
  };
  return { fetch, statuses };
}

/**
 * The service, driven through the client generated from its committed openapi.json: what a client
 * author gets, compiled against the generated types (npm run lint type-checks this file).
 */
describe('the typed client (clients/typescript)', () => {
  let t: TestApp;
  let api: ReturnType<typeof createPetAdoptionClient>;

  beforeAll(async () => {
    t = await startTestApp();
    api = createPetAdoptionClient({
      baseUrl: `${t.url}/v1`,
      apiKey: t.auth.authorization.replace(/^Bearer /, ''),
    });
    await resetDatabase(t.dataSource);
  });
  afterAll(() => t.close());

  it('creates a pet without status, as the specification allows, and gets it back available', async () => {
    const body: NewPet = { name: 'Rex', categoryId: 1 };
    const { data, error, response } = await api.POST('/pets', { body });
    expect(error).toBeUndefined();
    expect(response.status).toBe(201);
    expect(data).toEqual(
      petBody({ id: expect.any(Number), name: 'Rex', categoryId: 1, status: 'available' }),
    );
  });

  it('lists pets with a typed query', async () => {
    const { data } = await api.GET('/pets', {
      params: { query: { status: 'available', limit: 5 } },
    });
    expect(data?.map((pet) => pet.name)).toEqual(['Rex']);
  });

  it('gets a typed Error body for a 400', async () => {
    const { data, error, response } = await api.GET('/pets', { params: { query: { limit: 0 } } });
    expect(data).toBeUndefined();
    expect(response.status).toBe(400);
    expect(error).toEqual({
      code: 'validation_failed',
      message: expect.stringMatching(/limit/),
      status: 400,
      details: [
        { field: 'limit', issue: 'range', message: 'limit must be an integer from 1 to 100' },
      ],
      requestId: response.headers.get('x-request-id'),
      docUrl: expect.stringMatching(/\/v1\/docs\/errors#validation_failed$/),
    });
  });

  it('orders a pet, cancels the order by merge patch, and reads the inventory', async () => {
    const { data: pet } = await api.POST('/pets', { body: { name: 'Tom', categoryId: 2 } });
    const body: NewOrder = { petId: pet!.id };
    const placed = await api.POST('/store/orders', { body });
    expect(placed.response.status).toBe(201);
    expect(placed.data).toMatchObject({ petId: pet!.id, status: 'placed' });
    expect((await api.GET('/store/inventory')).data).toEqual({ available: 1, pending: 1, sold: 0 });
    const cancelled = await api.PATCH('/store/orders/{orderId}', {
      params: { path: { orderId: placed.data!.id } },
      body: { status: 'cancelled' },
      headers: { 'Content-Type': 'application/merge-patch+json' },
    });
    expect(cancelled.data?.status).toBe('cancelled');
    const again = await api.POST('/store/orders', { body: { petId: 999_999 } });
    expect(again.error).toEqual({
      code: 'not_found',
      message: 'No pet with id 999999.',
      status: 404,
      requestId: again.response.headers.get('x-request-id'),
      docUrl: expect.stringMatching(/\/v1\/docs\/errors#not_found$/),
    });
  });
  it('renames a pet under its ETag, names its category, finds it, and removes it', async () => {
    const created = await api.POST('/pets', { body: { name: 'Kit', categoryId: 9 } });
    const petId = created.data!.id;
    const body: PetUpdate = { name: 'Kitty' };
    const renamed = await api.PATCH('/pets/{petId}', {
      params: { path: { petId }, header: { 'If-Match': created.response.headers.get('etag')! } },
      body,
    });
    expect(renamed.data).toMatchObject({ name: 'Kitty', version: 2 });
    const stale = await api.PATCH('/pets/{petId}', {
      params: { path: { petId }, header: { 'If-Match': '"1"' } },
      body: { status: 'sold' },
    });
    expect(stale.error?.code).toBe('precondition_failed');
    const naming: CategoryUpdate = { name: 'Cats' };
    const named = await api.PUT('/categories/{categoryId}', {
      params: { path: { categoryId: 9 } },
      body: naming,
    });
    expect(named.data).toEqual({ id: 9, name: 'Cats' });
    const found = await api.GET('/pets', { params: { query: { name: 'kitt', categoryId: 9 } } });
    expect(found.data?.map((pet) => pet.id)).toEqual([petId]);
    const removed = await api.DELETE('/pets/{petId}', { params: { path: { petId } } });
    expect(removed.response.status).toBe(204);
    expect((await api.GET('/categories')).data).toContainEqual({ id: 9, name: 'Cats' });
  });
});

describe('the typed client’s helpers, against the service', () => {
  let t: TestApp;
  let api: ReturnType<typeof createPetAdoptionClient>;
  const apiKey = () => t.auth.authorization.replace(/^Bearer /, '');

  beforeAll(async () => {
    t = await startTestApp();
    api = createPetAdoptionClient({ baseUrl: `${t.url}/v1`, apiKey: apiKey() });
  });
  beforeEach(() => resetDatabase(t.dataSource));
  afterAll(() => t.close());

  it('pages: follows Link rel="next" until the last page, keeping the filters', async () => {
    const names = ['Ada', 'Bo', 'Cy', 'Di', 'Ed'];
    const ids: number[] = [];
    for (const name of names) {
      const { data } = await api.POST('/pets', { body: { name, categoryId: 1 } });
      ids.push(data!.id);
    }
    await api.PATCH('/pets/{petId}', {
      params: { path: { petId: ids[1] } },
      body: { status: 'sold' },
    });
    const seen: number[][] = [];
    for await (const page of pages(api, '/pets', {
      params: { query: { limit: 2, status: 'available' } },
    })) {
      seen.push(page.map((pet) => pet.id));
    }
    expect(seen).toEqual([
      [ids[0], ids[2]],
      [ids[3], ids[4]],
    ]);
    const all: string[] = [];
    for await (const page of pages(api, '/pets', { params: { query: { limit: 1 } } })) {
      all.push(...page.map((pet) => pet.name));
    }
    expect(all).toEqual(names);
  });

  it("pages: asks for the next page by the Link's own query, not a cursor of its making", async () => {
    const ids: number[] = [];
    for (const name of ['Ada', 'Bo', 'Cy']) {
      ids.push((await api.POST('/pets', { body: { name, categoryId: 1 } })).data!.id);
    }
    // Between the service and the client, the first page's link is changed to skip Bo: a helper
    // that built `after` from the page it read would ask for Bo, one that follows the link not.
    const asked: string[] = [];
    const relinking = createPetAdoptionClient({
      baseUrl: `${t.url}/v1`,
      apiKey: apiKey(),
      fetch: async (input, init) => {
        const request = new Request(input, init);
        asked.push(new URL(request.url).search);
        const response = await fetch(request);
        const link = response.headers.get('link');
        if (!link) return response;
        const headers = new Headers(response.headers);
        headers.set('link', link.replace(`after=${ids[0]}`, `after=${ids[1]}`));
        return new Response(await response.arrayBuffer(), { status: response.status, headers });
      },
    });
    const seen: number[] = [];
    for await (const page of pages(relinking, '/pets', { params: { query: { limit: 1 } } })) {
      seen.push(...page.map((pet) => pet.id));
    }
    expect(seen).toEqual([ids[0], ids[2]]);
    expect(asked).toEqual(['?limit=1', `?limit=1&after=${ids[1]}`]);
  });

  it('pages: throws the Error body of a refused page', async () => {
    const listing = pages(api, '/pets', { params: { query: { limit: 0 } } });
    await expect(listing.next()).rejects.toMatchObject({
      name: 'PetAdoptionError',
      status: 400,
      body: { code: 'validation_failed' },
    });
  });

  it('updateWithETag: on 412 reads the pet again and applies the change to what it now is', async () => {
    const { data: pet } = await api.POST('/pets', { body: { name: 'Rex', categoryId: 1 } });
    const seenVersions: number[] = [];
    const updated = await updateWithETag(
      api,
      '/pets/{petId}',
      { path: { petId: pet!.id } },
      (current) => {
        seenVersions.push(current.version);
        return { name: `${current.name} Jr.` };
      },
      { attempts: 3 },
    );
    expect(seenVersions).toEqual([1]);
    expect(updated).toMatchObject({ name: 'Rex Jr.', version: 2 });

    const racing: number[] = [];
    const raced = await updateWithETag(
      api,
      '/pets/{petId}',
      { path: { petId: pet!.id } },
      async (current) => {
        racing.push(current.version);
        // Another client changes the pet between the first read and its write.
        if (racing.length === 1) {
          await api.PATCH('/pets/{petId}', {
            params: { path: { petId: pet!.id } },
            body: { categoryId: 7 },
          });
        }
        return { name: `${current.name}!` };
      },
    );
    expect(racing).toEqual([2, 3]);
    expect(raced).toMatchObject({ name: 'Rex Jr.!', categoryId: 7, version: 4 });
  });

  it('updateWithETag: reads a pet with GET /pets?id=, never the deprecated getPet', async () => {
    const { data: pet } = await api.POST('/pets', { body: { name: 'Moss', categoryId: 1 } });
    const sent: string[] = [];
    const watched = createPetAdoptionClient({
      baseUrl: `${t.url}/v1`,
      apiKey: t.auth.authorization.replace(/^Bearer /, ''),
      fetch: async (input, init) => {
        const request = new Request(input, init);
        sent.push(
          `${request.method} ${new URL(request.url).pathname}${new URL(request.url).search}`,
        );
        return globalThis.fetch(request);
      },
    });
    const updated = await updateWithETag(
      watched,
      '/pets/{petId}',
      { path: { petId: pet!.id } },
      () => ({
        name: 'Moss II',
      }),
    );
    expect(updated).toMatchObject({ id: pet!.id, name: 'Moss II', version: 2 });
    expect(sent).toEqual([`GET /v1/pets?id=${pet!.id}`, `PATCH /v1/pets/${pet!.id}`]);
  });

  it('updateWithETag: a pet that is gone is the 404 not_found, and nothing is sent to change it', async () => {
    const { data: pet } = await api.POST('/pets', { body: { name: 'Gone', categoryId: 1 } });
    await api.DELETE('/pets/{petId}', { params: { path: { petId: pet!.id } } });
    let changed = false;
    const changing = updateWithETag(api, '/pets/{petId}', { path: { petId: pet!.id } }, () => {
      changed = true;
      return { name: 'Never' };
    });
    await expect(changing).rejects.toMatchObject({
      name: 'PetAdoptionError',
      status: 404,
      body: {
        code: 'not_found',
        message: `No pet with id ${pet!.id}.`,
        status: 404,
        docUrl: `${t.url}/v1/docs/errors#not_found`,
      },
    });
    expect(changed).toBe(false);
  });

  it('updateWithETag: gives up after its attempts with the 412', async () => {
    const { data: pet } = await api.POST('/pets', { body: { name: 'Rex', categoryId: 1 } });
    let calls = 0;
    const changing = updateWithETag(
      api,
      '/pets/{petId}',
      { path: { petId: pet!.id } },
      async (current) => {
        calls++;
        await api.PATCH('/pets/{petId}', {
          params: { path: { petId: pet!.id } },
          body: { categoryId: current.categoryId + 1 },
        });
        return { name: 'Never' };
      },
      { attempts: 2 },
    );
    await expect(changing).rejects.toMatchObject({
      status: 412,
      body: { code: 'precondition_failed' },
    });
    expect(calls).toBe(2);
  });
});

describe('the typed client’s retries after Retry-After', () => {
  /** The limiter's clock reads a given instant, then runs on from it. */
  const clock = { offset: 0, now: () => Date.now() + clock.offset };
  let t: TestApp;

  beforeAll(async () => {
    // Counted in the process, by the clock above: a window can end two seconds from now.
    t = await startTestApp({ REDIS_URL: '' }, (builder) =>
      builder.overrideProvider(RateLimitClock).useValue(clock),
    );
  });
  afterAll(() => t.close());

  /** Makes the limiter's current minute end `seconds` from now. */
  const minuteEndsIn = (seconds: number) => {
    const now = Date.now();
    clock.offset = Math.ceil(now / 60_000) * 60_000 - seconds * 1000 - now;
  };

  it('waits Retry-After after a 429, and is answered once the window has passed', async () => {
    const { key } = await t.issueKey({ limits: { perMinute: 1, perDay: 100 } });
    const { fetch, statuses } = countingFetch();
    const api = createPetAdoptionClient({ baseUrl: `${t.url}/v1`, apiKey: key, fetch });
    minuteEndsIn(1.6);
    expect((await api.GET('/pets')).response.status).toBe(200);
    const started = Date.now();
    const { data, response } = await api.GET('/pets');
    expect(response.status).toBe(200);
    expect(data).toEqual(expect.any(Array));
    expect(statuses).toEqual([200, 429, 200]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
  });

  it('reports each wait for Retry-After through onRetry, before waiting it', async () => {
    const { key } = await t.issueKey({ limits: { perMinute: 1, perDay: 100 } });
    const reported: {
      attempt: number;
      waitMs: number;
      retryAfter: string | null;
      status: number;
      code: string;
      at: number;
    }[] = [];
    const api = createPetAdoptionClient({
      baseUrl: `${t.url}/v1`,
      apiKey: key,
      retry: {
        onRetry: async ({ attempt, waitMs, response, request }) => {
          expect(request.url).toBe(`${t.url}/v1/pets`);
          // The refusal itself, whose body the hook may read.
          const body = (await response.json()) as { code: string };
          reported.push({
            attempt,
            waitMs,
            retryAfter: response.headers.get('retry-after'),
            status: response.status,
            code: body.code,
            at: Date.now(),
          });
        },
      },
    });
    minuteEndsIn(1.6);
    expect((await api.GET('/pets')).response.status).toBe(200);
    const started = Date.now();
    const { response } = await api.GET('/pets');
    expect(response.status).toBe(200);
    expect(reported).toEqual([
      {
        attempt: 1,
        waitMs: expect.any(Number),
        retryAfter: expect.stringMatching(/^[12]$/),
        status: 429,
        code: 'rate_limited',
        at: expect.any(Number),
      },
    ]);
    // The wait the refusal asked for (whole seconds: 1 or 2 for a minute ending 1.6 s from now).
    const [{ waitMs, retryAfter, at }] = reported;
    expect(waitMs).toBe(Number(retryAfter) * 1000);
    // Told before the wait, not after it.
    expect(at - started).toBeLessThan(waitMs);
    expect(Date.now() - started).toBeGreaterThanOrEqual(waitMs);
  });

  it('retries a bounded number of times, and not at all when told not to', async () => {
    const { key } = await t.issueKey({ limits: { perMinute: 1, perDay: 100 } });
    // The clock stands still a second before the minute ends: every retry meets the same 429.
    const still = Math.ceil(Date.now() / 60_000) * 60_000 - 1_000;
    clock.offset = 0;
    const frozen = jest.spyOn(clock, 'now').mockReturnValue(still);
    try {
      const bounded = countingFetch();
      const attempts: number[] = [];
      const api = createPetAdoptionClient({
        baseUrl: `${t.url}/v1`,
        apiKey: key,
        fetch: bounded.fetch,
        retry: { retries: 2, onRetry: ({ attempt }) => void attempts.push(attempt) },
      });
      await api.GET('/pets');
      const refused = await api.GET('/pets');
      expect(refused.error).toMatchObject({ code: 'rate_limited' });
      expect(bounded.statuses).toEqual([200, 429, 429, 429]);
      // One report per wait: the last refusal is answered, not waited for.
      expect(attempts).toEqual([1, 2]);

      const once = countingFetch();
      const impatient = createPetAdoptionClient({
        baseUrl: `${t.url}/v1`,
        apiKey: key,
        fetch: once.fetch,
        retry: false,
      });
      expect((await impatient.GET('/pets')).response.status).toBe(429);
      expect(once.statuses).toEqual([429]);

      const shortWait = countingFetch();
      let toldOfWait = false;
      const hurried = createPetAdoptionClient({
        baseUrl: `${t.url}/v1`,
        apiKey: key,
        fetch: shortWait.fetch,
        retry: { maxWaitSeconds: 0, onRetry: () => void (toldOfWait = true) },
      });
      expect((await hurried.GET('/pets')).response.status).toBe(429);
      expect(shortWait.statuses).toEqual([429]);
      // A wait longer than allowed is not made, so not reported.
      expect(toldOfWait).toBe(false);
    } finally {
      frozen.mockRestore();
    }
  });
});

describe('the typed client’s retries while the database is away', () => {
  let t: TestApp;
  let proxy: TcpProxy;

  beforeAll(async () => {
    const viaProxy = await databaseProxy();
    proxy = viaProxy.proxy;
    t = await startTestApp({ DATABASE_URL: viaProxy.url, DATABASE_CONNECT_TIMEOUT_MS: '500' });
  });
  afterAll(async () => {
    await t.close();
    await proxy.stop();
  });

  it('waits Retry-After after a 503 and reads once the database is back; a POST without Idempotency-Key is not sent twice', async () => {
    const { fetch, statuses } = countingFetch();
    const api = createPetAdoptionClient({
      baseUrl: `${t.url}/v1`,
      apiKey: t.auth.authorization.replace(/^Bearer /, ''),
      fetch,
    });
    proxy.cut();
    const created = await api.POST('/pets', { body: { name: 'Rex', categoryId: 1 } });
    expect(created.error).toMatchObject({ code: 'service_unavailable' });
    expect(statuses).toEqual([503]);

    setTimeout(() => proxy.restore(), 1_000);
    const started = Date.now();
    const { response } = await api.GET('/pets');
    expect(response.status).toBe(200);
    expect(statuses).toEqual([503, 503, 200]);
    // The service asks for 5 s while its database is unreachable.
    expect(Date.now() - started).toBeGreaterThanOrEqual(4_500);
  }, 20_000);
});
