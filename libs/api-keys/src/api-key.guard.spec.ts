import { LocalKeyChangeBroadcast } from './key-change-broadcast';
import { ExecutionContext, HttpException, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiKeyAuthenticator } from './api-key-authenticator';
import { AllowAnonymous, ApiKeyGuard, getApiClient } from './api-key.guard';
import { resolveOptions } from './api-keys.options';
import { ApiKeys } from './api-keys.service';
import { InMemoryApiKeyStore } from '@pet-adoption/api-keys/testing';

class Handlers {
  guarded(): void {}
  @AllowAnonymous()
  open(): void {}
}

function contextFor(
  authorization: string | string[] | undefined,
  handler: keyof Handlers = 'guarded',
) {
  const request = { headers: authorization === undefined ? {} : { authorization } };
  const headers: Record<string, string> = {};
  const reply = { header: (name: string, value: string) => (headers[name] = value) };
  const context = {
    switchToHttp: () => ({ getRequest: () => request, getResponse: () => reply }),
    getHandler: () => Handlers.prototype[handler],
    getClass: () => Handlers,
  } as unknown as ExecutionContext;
  return { context, request, headers };
}

describe('ApiKeyGuard', () => {
  let store: InMemoryApiKeyStore;
  let authenticator: ApiKeyAuthenticator;
  let keys: ApiKeys;
  let guard: ApiKeyGuard;
  let key: string;
  let now: number;

  beforeEach(async () => {
    store = new InMemoryApiKeyStore();
    const options = resolveOptions({ keyPrefix: 'pet_test_', cacheTtlMs: 2000 });
    authenticator = new ApiKeyAuthenticator(store, new LocalKeyChangeBroadcast(), options);
    now = 1_000_000;
    authenticator.now = () => now;
    keys = new ApiKeys(store, authenticator, new LocalKeyChangeBroadcast(), options);
    guard = new ApiKeyGuard(authenticator, new Reflector());
    key = (await keys.issue({ name: 'shop', plan: 'pro' })).key;
  });
  afterEach(() => authenticator.onModuleDestroy());

  async function refusal(authorization: string | string[] | undefined) {
    const { context, headers } = contextFor(authorization);
    const error = await guard.canActivate(context).then(
      () => undefined,
      (e: HttpException) => e,
    );
    expect(error).toBeInstanceOf(HttpException);
    return {
      status: error!.getStatus(),
      body: error!.getResponse(),
      challenge: headers['WWW-Authenticate'],
    };
  }

  it('lets a valid key through and attaches its client with the plan limits', async () => {
    const { context, request } = contextFor(`Bearer ${key}`);
    await expect(guard.canActivate(context)).resolves.toBe(true);
    expect(getApiClient(request)).toEqual({
      organizationId: null,
      expiresAt: null,
      keyId: '1',
      name: 'shop',
      plan: 'pro',
      limits: { perMinute: 300, perDay: 10_000, openOrders: 50, webhookEndpoints: 10 },
      scopes: [],
    });
  });

  it.each([
    ['a lower-case scheme', (k: string) => `bearer ${k}`],
    ['an upper-case scheme', (k: string) => `BEARER ${k}`],
    ['several spaces after the scheme', (k: string) => `Bearer   ${k}`],
    ['surrounding white space', (k: string) => `  Bearer ${k}  `],
  ])('accepts %s', async (_, header) => {
    await expect(guard.canActivate(contextFor(header(key)).context)).resolves.toBe(true);
  });

  it.each([
    ['no header', undefined],
    ['an empty header', ''],
  ])('refuses %s with a plain Bearer challenge', async (_, header) => {
    expect(await refusal(header)).toEqual({
      status: 401,
      body: { code: 'unauthorized', message: expect.stringContaining('API key is required') },
      challenge: 'Bearer',
    });
  });

  it.each([
    ['Basic credentials', () => 'Basic dXNlcjpwYXNz'],
    ['a token without a scheme', (k: string) => k],
    ['a scheme without a token', () => 'Bearer'],
    ['a scheme and a space', () => 'Bearer '],
    ['two tokens', (k: string) => `Bearer ${k} ${k}`],
    ['a tab instead of a space', (k: string) => `Bearer\t${k}`],
    [
      'a key one character off',
      (k: string) => `Bearer ${k.slice(0, -1)}${k.endsWith('A') ? 'B' : 'A'}`,
    ],
    ['a key one character short', (k: string) => `Bearer ${k.slice(0, -1)}`],
    [
      'a key of another environment',
      (k: string) => `Bearer ${k.replace('pet_test_', 'pet_live_')}`,
    ],
    ['a made-up key', () => 'Bearer pet_test_nope'],
  ])('refuses %s with 401 unauthorized and a challenge', async (_, header) => {
    const result = await refusal(header(key));
    expect(result.status).toBe(401);
    expect(result.body).toMatchObject({ code: 'unauthorized' });
    expect(result.challenge).toMatch(/^Bearer( error="invalid_token")?$/);
  });

  it('says invalid_token when a key was given but is not valid', async () => {
    expect((await refusal('Bearer pet_test_nope')).challenge).toBe('Bearer error="invalid_token"');
  });

  it('refuses two Authorization headers', async () => {
    expect((await refusal([`Bearer ${key}`, `Bearer ${key}`])).status).toBe(401);
  });

  it('refuses a revoked key at once on the instance that revoked it', async () => {
    await guard.canActivate(contextFor(`Bearer ${key}`).context);
    await keys.revoke('1');
    expect((await refusal(`Bearer ${key}`)).status).toBe(401);
  });

  it('refuses a key revoked elsewhere once the cache lifetime has passed', async () => {
    await guard.canActivate(contextFor(`Bearer ${key}`).context);
    await store.revoke('1', new Date());
    await expect(guard.canActivate(contextFor(`Bearer ${key}`).context)).resolves.toBe(true);
    now += 2001;
    expect((await refusal(`Bearer ${key}`)).status).toBe(401);
  });

  it('lets an anonymous-allowed route through without a key, and still recognises a valid one', async () => {
    await expect(guard.canActivate(contextFor(undefined, 'open').context)).resolves.toBe(true);
    const { context, request } = contextFor(`Bearer ${key}`, 'open');
    await guard.canActivate(context);
    expect(getApiClient(request)?.plan).toBe('pro');
  });

  it('never puts the key in an error or a log line', async () => {
    const logged: string[] = [];
    const spies = (['log', 'warn', 'error', 'debug', 'verbose'] as const).map((level) =>
      jest
        .spyOn(Logger.prototype, level)
        .mockImplementation((...args: unknown[]) => void logged.push(args.join(' '))),
    );
    store.recordUse = () => Promise.reject(new Error('database down'));
    const almost = `${key.slice(0, -1)}x`;
    const result = await refusal(`Bearer ${almost}`);
    await guard.canActivate(contextFor(`Bearer ${key}`).context);
    await authenticator.flushLastUsed();
    spies.forEach((spy) => spy.mockRestore());
    expect(logged.length).toBeGreaterThan(0);
    for (const text of [...logged, JSON.stringify(result)]) {
      expect(text).not.toContain(key.slice(9));
      expect(text).not.toContain(almost.slice(9));
    }
  });
});
