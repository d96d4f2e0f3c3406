import { request } from './support/http';
import { startTestApp, TestApp } from './support/test-app';

/**
 * CONTRACT.md "Fast feedback (v1.4)", the first hour, round 2: the first addresses a newcomer
 * types, `/` and `/v1`, answer with the way to the docs page and the OpenAPI document.
 */
describe('GET / and GET /v1: the index', () => {
  let t: TestApp;
  const base = 'https://pets.example/v1';
  const index = {
    name: 'Pet Adoption Service',
    version: '1.0.0',
    links: {
      api: base,
      docs: `${base}/docs`,
      openapi: `${base}/openapi.json`,
      errors: `${base}/docs/errors`,
    },
  };

  beforeAll(async () => {
    t = await startTestApp({ PUBLIC_BASE_URL: base });
  });
  afterAll(() => t.close());

  it.each(['/', '/v1'])('answers %s without a key: where the docs are', async (path) => {
    const response = await request(t.url).get(path);
    expect({ status: response.status, body: response.body }).toEqual({ status: 200, body: index });
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    // Counted per address as every keyless request is: the limits are said on it too.
    expect(response.headers['x-ratelimit-limit']).toEqual(expect.any(String));
  });

  it('answers the same with a key, and its version is the OpenAPI document’s', async () => {
    const response = await request(t.url).get('/v1').set(t.auth);
    expect(response.status).toBe(200);
    expect(response.body).toEqual(index);
    const document = await request(t.url).get('/v1/openapi.json');
    expect(document.body.info).toMatchObject({ title: index.name, version: index.version });
  });

  it('links addresses the service serves: the docs page and the document', async () => {
    for (const link of [index.links.docs, index.links.openapi, index.links.errors]) {
      const path = new URL(link).pathname;
      expect({ path, status: (await request(t.url).get(path)).status }).toEqual({
        path,
        status: 200,
      });
    }
  });

  it('refuses other methods on them as any route does: 405 naming GET', async () => {
    const response = await request(t.url).post('/v1').send({});
    expect(response.status).toBe(405);
    expect(response.headers.allow).toContain('GET');
  });
});
