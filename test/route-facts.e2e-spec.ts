import { RouteFactHeaders } from '../src/platform/http/route-facts/route-fact-headers';
import { RouteTable } from '../src/platform/http/routing/route-table';
import { request, Response } from './support/http';
import { databaseProxy, TcpProxy } from './support/tcp-proxy';
import { resetDatabase, startTestApp, TestApp } from './support/test-app';
import { awayFromMinuteEnd } from './support/windows';

/**
 * Every route that states facts (deprecation, stability) carries their headers on every response,
 * whatever its status: found from the routes' own metadata, not from a list of paths.
 */
// A route may wait for the next minute window (awayFromMinuteEnd), up to 5 s.
jest.setTimeout(90_000);

describe('route facts on every response', () => {
  let proxy: TcpProxy;
  let t: TestApp;
  let petId: number;

  beforeAll(async () => {
    const viaProxy = await databaseProxy();
    proxy = viaProxy.proxy;
    // Two requests without a valid key per route: with some twenty routes stating facts, the
    // address's anonymous budget (60 a minute by default) would run out before the last.
    // A keyless route (the photos' images) is refused by its own budget instead: two a minute.
    t = await startTestApp({
      DATABASE_URL: viaProxy.url,
      ANONYMOUS_PER_MINUTE: '1000',
      PHOTO_GETS_PER_MINUTE: '2',
    });
    await resetDatabase(t.dataSource);
    const created = await request(t.url)
      .post('/v1/pets')
      .set(t.auth)
      .send({ name: 'Rex', categoryId: 1 });
    petId = created.body.id;
  });
  afterAll(async () => {
    proxy.restore();
    await t.close();
    await proxy.stop();
  });

  it('has routes that state facts', () => {
    expect(t.app.get(RouteTable).withFacts().length).toBeGreaterThan(0);
  });

  it('puts their headers on 2xx, 4xx, 401, 429 and 503 responses alike (200 for a spent key where asking costs nothing)', async () => {
    const headersOf = t.app.get(RouteFactHeaders);
    const limited = await t.issueKey({ limits: { perMinute: 1, perDay: 1000 } });
    for (const { method, url, facts } of t.app.get(RouteTable).withFacts()) {
      const path = url.replace(/:[A-Za-z0-9_]+/g, String(petId));
      const verb = method.toLowerCase() as 'get' | 'head' | 'post' | 'patch';
      const send = (headers: Record<string, string>) => {
        const test = request(t.url)[verb](path).set(headers);
        return method === 'GET' || method === 'HEAD' ? test : test.send({});
      };
      // The budgets are minute windows: requests counted in one and refused in the next would
      // be answered, not refused (seen once in CI, on the slow embedded engine).
      await awayFromMinuteEnd();
      const responses: Response[] = [
        await send(t.auth),
        await send({}),
        await send(limited.auth),
        await send(limited.auth),
      ];
      proxy.cut();
      responses.push(
        await send({ authorization: 'Bearer pet_test_unknown-while-the-database-is-down' }),
      );
      proxy.restore();

      const statuses = responses.map((r) => r.status);
      expect({ route: `${method} ${url}`, statuses }).toEqual({
        route: `${method} ${url}`,
        // A keyless route counts its address (spent here by the requests before), never a key; an
        // uncounted one (a key asking about its own budget) answers a spent key all the same.
        statuses: facts.keylessBudget
          ? [expect.any(Number), expect.any(Number), 429, 429, 503]
          : [expect.any(Number), 401, expect.any(Number), facts.uncounted ? 200 : 429, 503],
      });
      for (const response of responses) {
        expect({
          route: `${method} ${url}`,
          status: response.status,
          headers: response.headers,
        }).toEqual({
          route: `${method} ${url}`,
          status: response.status,
          headers: expect.objectContaining(headersOf.of(facts)),
        });
      }
    }
  });
});
