import { ApiKeyStore } from '@pet-adoption/api-keys';
import { request as httpRequest } from 'node:http';
import { apiClient } from './support/http';
import { startTestApp, TestApp } from './support/test-app';
import { awayFromMinuteEnd } from './support/windows';
import { redisKeyPrefix } from './support/confinement';

jest.setTimeout(60_000);

const ADMIN_TOKEN = 'ban-isolation-admin-token-0123456789abcdef';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: { code?: string };
}

/** GET `path` from a local source address, as a client on another machine would. */
function from(address: string, url: string, path: string, key?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      `${url}${path}`,
      { localAddress: address, headers: key ? { authorization: `Bearer ${key}` } : {} },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode!,
            headers: response.headers,
            body: JSON.parse(text),
          }),
        );
      },
    );
    request.on('error', reject);
    request.end();
  });
}

/**
 * docs/adr/0023: an address that is limited or banned for its requests without a valid key still
 * lets every valid key through on the key's own budget, on every instance, including one that has
 * never seen the key; a guessed key from that address still costs no database look-up.
 */
describe("a valid key is never refused for its address's anonymous traffic", () => {
  let a: TestApp;
  let b: TestApp;
  let business: string;
  const prefix = `${redisKeyPrefix()}bans:${process.pid}:${Date.now()}:`;

  beforeAll(async () => {
    a = await startTestApp({ REDIS_KEY_PREFIX: prefix, ADMIN_TOKEN });
    business = (await a.issueKey({ plan: 'business', limits: undefined })).key;
    // Started after the key was issued, as after a deploy: B has never seen it used.
    b = await startTestApp({ REDIS_KEY_PREFIX: prefix, ADMIN_TOKEN });
  });
  afterAll(() => Promise.all([a.close(), b.close()]));

  it('lets a business key through from an address banned for 95 anonymous requests', async () => {
    await awayFromMinuteEnd(20);
    const address = '127.0.0.77';
    let last!: Answer;
    for (let i = 0; i < 95; i++) last = await from(address, b.url, '/v1/pets');
    expect(last.status).toBe(429);
    expect(last.body.code).toBe('key_temporarily_banned');

    const lookUps = jest.spyOn(b.app.get(ApiKeyStore), 'findByHash');
    const valid = await from(address, b.url, '/v1/pets', business);
    expect(valid.status).toBe(200);
    expect(valid.headers['x-ratelimit-limit']).toBe('1000');
    // Anonymous traffic and guesses from the address stay refused, and guesses cost no look-up.
    expect((await from(address, b.url, '/v1/pets')).status).toBe(429);
    const guess = await from(address, b.url, '/v1/pets', `pet_test_${'x'.repeat(43)}`);
    expect(guess.status).toBe(429);
    expect(lookUps).toHaveBeenCalledTimes(1);
    lookUps.mockRestore();
    // The same key from the same address on the other instance too.
    expect((await from(address, a.url, '/v1/pets', business)).status).toBe(200);
  });

  it('knows a key issued on another instance within 100 ms: from an address banned for its anonymous traffic, its first request is served', async () => {
    await awayFromMinuteEnd(20);
    const address = '127.0.0.78';
    for (let i = 0; i < 95; i++) await from(address, b.url, '/v1/pets');
    expect((await from(address, b.url, '/v1/pets')).body.code).toBe('key_temporarily_banned');
    const { key } = await a.issueKey({ plan: 'pro', limits: undefined });
    const issued = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Well before the refresh of changed keys (every 2 s), which would also teach B the key.
    expect(Date.now() - issued).toBeLessThan(1_000);
    const first = await from(address, b.url, '/v1/pets', key);
    expect(first.status).toBe(200);
    expect(first.headers['x-ratelimit-limit']).toBe('300');
  });

  it("never makes a refusal caused by an address's traffic last longer than the address's own ban", async () => {
    await awayFromMinuteEnd(20);
    const address = '127.0.0.81';
    for (let i = 0; i < 95; i++) await from(address, b.url, '/v1/pets');
    const anonymous = await from(address, b.url, '/v1/pets');
    expect(anonymous.body.code).toBe('key_temporarily_banned');
    const ban = Number(anonymous.headers['retry-after']);
    expect(ban).toBeGreaterThan(0);
    // A made-up key pays from the address, and is refused no longer than the address is banned.
    const guess = await from(address, b.url, '/v1/pets', `pet_test_${'y'.repeat(43)}`);
    expect(guess.status).toBe(429);
    expect(Number(guess.headers['retry-after'])).toBeLessThanOrEqual(ban);
    // A valid key from it is not refused at all.
    expect((await from(address, b.url, '/v1/pets', business)).status).toBe(200);
  });

  it('bans a key for its own refusals only, lists the ban, and a lift on one instance holds on the other at once', async () => {
    await awayFromMinuteEnd(20);
    const limited = await a.issueKey({ limits: { perMinute: 1, perDay: 1000 } });
    let last!: Answer;
    for (let i = 0; i < 33; i++) last = await from('127.0.0.79', a.url, '/v1/pets', limited.key);
    expect(last.body.code).toBe('key_temporarily_banned');
    // The key is banned everywhere, from any address; the address is not banned for it.
    expect((await from('127.0.0.80', b.url, '/v1/pets', limited.key)).body.code).toBe(
      'key_temporarily_banned',
    );
    // (A request without a key from it is a 401, not a 429.)
    expect((await from('127.0.0.79', b.url, '/v1/pets')).status).toBe(401);

    const admin = (t: TestApp) => apiClient(t.url, { authorization: `Bearer ${ADMIN_TOKEN}` });
    const listed = (await admin(b).get('/admin/api-keys')).body as {
      id: number;
      bannedUntil: string | null;
    }[];
    expect(listed.find((k) => String(k.id) === limited.id)!.bannedUntil).not.toBeNull();
    expect((await admin(a).delete(`/admin/api-keys/${limited.id}/ban`)).status).toBe(204);
    // Lifted on B too, at once: the minute's budget is still spent, so a 429 of another kind.
    const after = await from('127.0.0.80', b.url, '/v1/pets', limited.key);
    expect(after.status).toBe(429);
    expect(after.body.code).toBe('rate_limited');
    const relisted = (await admin(b).get('/admin/api-keys')).body as typeof listed;
    expect(relisted.find((k) => String(k.id) === limited.id)!.bannedUntil).toBeNull();
  });
});
