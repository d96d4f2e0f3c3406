import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { redisKeyPrefix } from './support/confinement';
import { apiClient, expectError } from './support/http';
import { startTestApp, TestApp } from './support/test-app';

/**
 * CONTRACT.md "Trust, round 4 (v1.4)", "No key outranks its maker", on two instances sharing the
 * database and Redis: a key rolls and revokes only keys whose scopes are within its own; a key that
 * expires issues and rolls no key that outlives it; of simultaneous rolls of one key exactly one
 * wins; an expired or revoked key cannot be rolled.
 */
jest.setTimeout(60_000);

const ADMIN_TOKEN = 'key-ranks-suite-admin-token-0123456789abc';
const ALL_STAFF = [
  'pets:read',
  'pets:write',
  'pets:manage',
  'orders:read',
  'orders:manage',
  'organization:manage',
  'webhooks:manage',
];
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface RawResponse {
  status: number;
  body: { code?: string; key?: string; id?: number };
}

/**
 * Sends a JSON POST over its own connection but holds back the body's last byte until `release`
 * is called: the service cannot start on it before then (a handler needs the whole body), so
 * requests released together reach the service as close together as the machine allows. Without
 * this, 20 requests sent one by one can arrive far enough apart to be handled one after another,
 * and a race between them would not be tested.
 */
function heldPost(url: string, path: string, headers: Record<string, string>, body: string) {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  const lines = [
    `POST ${path} HTTP/1.1`,
    `host: ${hostname}:${port}`,
    'content-type: application/json',
    `content-length: ${Buffer.byteLength(body)}`,
    'connection: close',
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  const connected = new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve).once('error', reject);
  });
  const chunks: Buffer[] = [];
  const answered = new Promise<RawResponse>((resolve, reject) => {
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.once('error', reject);
    socket.once('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]);
      const payload = text.slice(text.indexOf('\r\n\r\n') + 4);
      // Fastify sends a JSON answer with its Content-Length, not chunked.
      resolve({ status, body: payload ? JSON.parse(payload) : {} });
    });
  });
  return {
    ready: connected.then(() => {
      socket.write(`${lines.join('\r\n')}\r\n\r\n${body.slice(0, -1)}`);
    }),
    release: () => socket.write(body.slice(-1)),
    answered,
  };
}

describe('no key outranks its maker, on two instances', () => {
  let a: TestApp;
  let b: TestApp;
  let admin: ReturnType<typeof apiClient>;
  let organizationId: number;

  beforeAll(async () => {
    const env = {
      ADMIN_TOKEN,
      REDIS_KEY_PREFIX: `${redisKeyPrefix()}key-ranks:${randomUUID()}:`,
      // 20 rolls at once wait for database connections together, on a machine shared with others.
      DATABASE_CONNECT_TIMEOUT_MS: '10000',
    };
    a = await startTestApp(env);
    b = await startTestApp(env);
    admin = apiClient(a.url, bearer(ADMIN_TOKEN));
    organizationId = (
      await admin.post('/admin/organizations').send({
        name: `Ranks Shelter ${randomUUID().slice(0, 8)}`,
        email: 'ranks@shelter.example',
        address: { city: 'Leeds', country: 'GB' },
      })
    ).body.id;
  });
  afterAll(async () => {
    await a.close();
    await b.close();
  });

  /** A key of the organisation, issued by the operator. */
  const operatorKey = async (scopes: string[], extra: Record<string, unknown> = {}) => {
    const response = await admin
      .post('/admin/api-keys')
      .send({ name: 'staff', plan: 'pro', scopes, organizationId, ...extra });
    expect(response.status).toBe(201);
    return response.body as { id: number; key: string; expiresAt: string | null };
  };

  /** Polls until the key is accepted (or refused) on the instance, as a roll is broadcast. */
  const acceptedOn = async (instance: TestApp, key: string, accepted = true) => {
    for (let tries = 0; tries < 100; tries++) {
      const { status } = await apiClient(instance.url, bearer(key)).get('/v1/keys/self');
      if ((status === 200) === accepted) return;
      await sleep(20);
    }
    throw new Error(`The key is still ${accepted ? 'refused' : 'accepted'} on ${instance.url}.`);
  };

  describe('scopes: a key rolls and revokes only keys whose scopes are within its own', () => {
    it('refuses a weaker key rolling or revoking a stronger sibling (403), which keeps working', async () => {
      const strong = await operatorKey(ALL_STAFF);
      const weak = apiClient(
        b.url,
        bearer((await operatorKey(['pets:read', 'organization:manage'])).key),
      );
      const rolled = expectError(
        await weak.post(`/v1/keys/${strong.id}/roll`).send({ overlapSeconds: 0 }),
        403,
        'forbidden',
      );
      expect(rolled.body.message).toMatch(/scopes this key lacks/);
      expect(rolled.body.message).toContain('orders:manage');
      expectError(await weak.delete(`/v1/keys/${strong.id}`), 403, 'forbidden');
      // One scope beyond is enough to refuse.
      const almost = await operatorKey(['pets:read', 'pets:write', 'organization:manage']);
      expectError(
        await weak.post(`/v1/keys/${almost.id}/roll`).send({ overlapSeconds: 0 }),
        403,
        'forbidden',
      );
      expectError(await weak.delete(`/v1/keys/${almost.id}`), 403, 'forbidden');
      for (const instance of [a, b]) {
        for (const key of [strong.key, almost.key]) {
          expect((await apiClient(instance.url, bearer(key)).get('/v1/keys/self')).status).toBe(
            200,
          );
        }
      }
      const listed = (await apiClient(a.url, bearer(strong.key)).get('/v1/keys')).body as {
        id: number;
        prefix: string;
        revokedAt: string | null;
      }[];
      expect(listed.find((key) => key.id === strong.id)?.revokedAt).toBeNull();
    });

    it('still rolls and revokes keys within its scopes, equal ones and itself included', async () => {
      const weakKey = await operatorKey(['pets:read', 'organization:manage']);
      const weak = apiClient(a.url, bearer(weakKey.key));
      const reader = await operatorKey(['pets:read']);
      const peer = await operatorKey(['pets:read', 'organization:manage']);
      const roll = await weak.post(`/v1/keys/${reader.id}/roll`).send({ overlapSeconds: 0 });
      expect(roll.status).toBe(200);
      await acceptedOn(b, roll.body.key);
      await weak.delete(`/v1/keys/${peer.id}`).expect(204);
      const own = await weak.post(`/v1/keys/${weakKey.id}/roll`).send({ overlapSeconds: 60 });
      expect(own.status).toBe(200);
    });

    it("answers another organisation's stronger key with 404, not 403: nothing is said of it", async () => {
      const weak = apiClient(
        a.url,
        bearer((await operatorKey(['pets:read', 'organization:manage'])).key),
      );
      const elsewhere = (
        await admin.post('/admin/api-keys').send({ name: 'other', plan: 'pro', scopes: ALL_STAFF })
      ).body;
      expectError(
        await weak.post(`/v1/keys/${elsewhere.id}/roll`).send({ overlapSeconds: 0 }),
        404,
        'not_found',
      );
      expectError(await weak.delete(`/v1/keys/${elsewhere.id}`), 404, 'not_found');
    });
  });

  describe('expiry: a key that expires makes no key that outlives it', () => {
    const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

    it('issues keys expiring with it by default, earlier when asked, and refuses later (400) or never', async () => {
      const expiresAt = inAnHour();
      const expiring = apiClient(
        a.url,
        bearer((await operatorKey(['pets:read', 'organization:manage'], { expiresAt })).key),
      );
      const plain = await expiring.post('/v1/keys').send({ name: 'temp', scopes: ['pets:read'] });
      expect(plain.status).toBe(201);
      expect(plain.body.expiresAt).toBe(expiresAt);
      const sooner = new Date(Date.parse(expiresAt) - 60_000).toISOString();
      const early = await expiring
        .post('/v1/keys')
        .send({ name: 'temp', scopes: ['pets:read'], expiresAt: sooner });
      expect(early.body.expiresAt).toBe(sooner);
      const before = (await expiring.get('/v1/keys')).body.length;
      const later = expectError(
        await expiring.post('/v1/keys').send({
          name: 'temp',
          scopes: ['pets:read'],
          expiresAt: new Date(Date.parse(expiresAt) + 1000).toISOString(),
        }),
        400,
        'validation_failed',
      );
      expect(later.body.message).toContain(expiresAt);
      expect((await expiring.get('/v1/keys')).body).toHaveLength(before);
      // A key that never expires still issues keys that never expire, as before.
      const forever = apiClient(
        a.url,
        bearer((await operatorKey(['pets:read', 'organization:manage'])).key),
      );
      const lasting = await forever.post('/v1/keys').send({ name: 'desk', scopes: ['pets:read'] });
      expect(lasting.body.expiresAt).toBeNull();
    });

    it('rolls a key that never expires, or expires later, into its own expiry; an earlier one keeps its own', async () => {
      const expiresAt = inAnHour();
      const expiring = apiClient(
        b.url,
        bearer((await operatorKey(['pets:read', 'organization:manage'], { expiresAt })).key),
      );
      const lasting = await operatorKey(['pets:read']);
      const rolled = await expiring.post(`/v1/keys/${lasting.id}/roll`).send({ overlapSeconds: 0 });
      expect(rolled.status).toBe(200);
      expect(rolled.body.expiresAt).toBe(expiresAt);
      const self = await apiClient(a.url, bearer(rolled.body.key)).get('/v1/keys/self');
      expect(self.body.expiresAt).toBe(expiresAt);
      const soon = new Date(Date.now() + 600_000).toISOString();
      const shorter = await operatorKey(['pets:read'], { expiresAt: soon });
      const kept = await expiring.post(`/v1/keys/${shorter.id}/roll`).send({ overlapSeconds: 0 });
      expect(kept.body.expiresAt).toBe(soon);
    });
  });

  describe('rolls of one key', () => {
    it('of 20 simultaneous rolls over two instances, one is a 200 and 19 a 409; its secret works on both', async () => {
      const manager = await operatorKey(ALL_STAFF);
      const target = await operatorKey(['pets:read', 'pets:write']);
      const requests = Array.from({ length: 20 }, (_, i) =>
        heldPost(
          (i % 2 === 0 ? a : b).url,
          `/v1/keys/${target.id}/roll`,
          bearer(manager.key),
          JSON.stringify({ overlapSeconds: 0 }),
        ),
      );
      await Promise.all(requests.map((request) => request.ready));
      // Both instances have read every request's headers, and wait for the last bytes.
      await sleep(300);
      for (const request of requests) request.release();
      const answers = await Promise.all(requests.map((request) => request.answered));
      const byStatus: Record<number, number> = {};
      for (const { status } of answers) byStatus[status] = (byStatus[status] ?? 0) + 1;
      expect(byStatus).toEqual({ 200: 1, 409: 19 });
      for (const { status, body } of answers) {
        if (status === 409) expect(body.code).toBe('conflict');
      }
      const winner = answers.find(({ status }) => status === 200)!.body.key!;
      // The one secret handed out is the key's: accepted on both instances, now and after.
      await acceptedOn(a, winner);
      await acceptedOn(b, winner);
      await acceptedOn(a, target.key, false);
      await acceptedOn(b, target.key, false);
      // A roll after the race, having read the key anew, is no conflict.
      const next = await apiClient(a.url, bearer(manager.key))
        .post(`/v1/keys/${target.id}/roll`)
        .send({ overlapSeconds: 60 });
      expect(next.status).toBe(200);
      await acceptedOn(b, next.body.key);
      await acceptedOn(b, winner);
    });

    it('answers a roll of an expired key and of a revoked key with 404, handing out no secret', async () => {
      const manager = apiClient(a.url, bearer((await operatorKey(ALL_STAFF)).key));
      const expiring = await operatorKey(['pets:read'], {
        expiresAt: new Date(Date.now() + 1500).toISOString(),
      });
      await sleep(1600);
      expectError(
        await manager.post(`/v1/keys/${expiring.id}/roll`).send({ overlapSeconds: 0 }),
        404,
        'not_found',
      );
      const revoked = await operatorKey(['pets:read']);
      await manager.delete(`/v1/keys/${revoked.id}`).expect(204);
      expectError(
        await manager.post(`/v1/keys/${revoked.id}/roll`).send({ overlapSeconds: 0 }),
        404,
        'not_found',
      );
      const listed = (await manager.get('/v1/keys')).body as {
        id: number;
        previousSecretValidUntil: string | null;
      }[];
      expect(listed.find((key) => key.id === expiring.id)?.previousSecretValidUntil).toBeNull();
    });
  });
});
