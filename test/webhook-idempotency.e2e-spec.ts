import { randomBytes } from 'node:crypto';
import { apiClient, expectError } from './support/http';
import { resetDatabase, startTestApp, TestApp } from './support/test-app';

/**
 * `Idempotency-Key` on createWebhookEndpoint (docs/api.md, "Idempotent creation"; docs/adr/0047):
 * a retried creation makes one endpoint and answers the same body, secret included, while the
 * idempotency table keeps the secret only as the endpoints table does (sealed).
 */
jest.setTimeout(60_000);

const SCOPES = ['pets:read', 'webhooks:manage'];

describe('createWebhookEndpoint with Idempotency-Key', () => {
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    // Two instances on one database, secrets encrypted at rest. Started at once, with 12 retries
    // at once later: on a loaded machine a connection may take over the default 1 s to open.
    const env = {
      DATABASE_CONNECT_TIMEOUT_MS: '5000',
      WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
      WEBHOOK_SECRETS_KEY: randomBytes(32).toString('base64'),
      WEBHOOK_ENDPOINT_CREATIONS_PER_MINUTE: '1000',
    };
    [a, b] = await Promise.all([startTestApp(env), startTestApp(env)]);
  });
  beforeEach(() => resetDatabase(a.dataSource));
  afterAll(() => Promise.all([a.close(), b.close()]));

  const body = { url: 'http://127.0.0.1:9/hook', events: ['pet.created'], description: 'Shop' };
  const count = async () =>
    (await a.dataSource.query('SELECT count(*)::int AS n FROM webhook_endpoints'))[0].n as number;

  it('answers a retry with the same endpoint and secret, creating one; another body is a 422', async () => {
    const { auth } = await a.issueKey({ scopes: SCOPES });
    const headers = { ...auth, 'idempotency-key': 'hook-1' };
    const first = await apiClient(a.url, headers).post('/v1/webhook-endpoints').send(body);
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(first.body.secret).toMatch(/^whsec_/);
    const retry = await apiClient(b.url, headers).post('/v1/webhook-endpoints').send(body);
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.location).toBe(first.headers.location);
    expect(await count()).toBe(1);

    // The idempotency table holds no plain secret: only the sealed one, as webhook_endpoints.
    const [recorded] = await a.dataSource.query(
      "SELECT response::text AS response FROM idempotency_keys WHERE key = 'hook-1'",
    );
    expect(recorded.response).not.toContain(first.body.secret);
    expect(recorded.response).not.toContain('whsec_');
    expect(recorded.response).toContain('aes256gcm:');

    expectError(
      await apiClient(a.url, headers)
        .post('/v1/webhook-endpoints')
        .send({ ...body, description: 'Other' }),
      422,
      'idempotency_key_reused',
    );
    // Another key's same Idempotency-Key is its own.
    const other = await a.issueKey({ scopes: SCOPES });
    const theirs = await apiClient(a.url, { ...other.auth, 'idempotency-key': 'hook-1' })
      .post('/v1/webhook-endpoints')
      .send(body);
    expect(theirs.status).toBe(201);
    expect(theirs.body.id).not.toBe(first.body.id);
    expect(await count()).toBe(2);
  });

  it('makes one endpoint of 12 concurrent retries over two instances, all answered alike', async () => {
    const { auth } = await a.issueKey({ scopes: SCOPES });
    const headers = { ...auth, 'idempotency-key': 'burst' };
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        apiClient([a, b][i % 2].url, headers)
          .post('/v1/webhook-endpoints')
          .send(body),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(12).fill(201));
    expect(new Set(responses.map((r) => JSON.stringify(r.body))).size).toBe(1);
    expect(responses.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(11);
    expect(await count()).toBe(1);
  });

  it('replays a creation that succeeded even once the key is at its cap; a refused one records nothing', async () => {
    const { auth } = await a.issueKey({
      limits: { perMinute: 1000, perDay: 10_000, webhookEndpoints: 1 },
      scopes: SCOPES,
    });
    const first = await apiClient(a.url, { ...auth, 'idempotency-key': 'only' })
      .post('/v1/webhook-endpoints')
      .send(body);
    expect(first.status).toBe(201);
    const replay = await apiClient(a.url, { ...auth, 'idempotency-key': 'only' })
      .post('/v1/webhook-endpoints')
      .send(body);
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual(first.body);
    const refused = () =>
      apiClient(a.url, { ...auth, 'idempotency-key': 'second' })
        .post('/v1/webhook-endpoints')
        .send(body);
    expectError(await refused(), 409, 'limit_reached');
    // Once there is room, the same key creates: the refusal was not recorded.
    await apiClient(a.url, auth).delete(`/v1/webhook-endpoints/${first.body.id}`).expect(204);
    const created = await refused();
    expect(created.status).toBe(201);
    expect(created.headers['idempotent-replayed']).toBeUndefined();
  });
});
