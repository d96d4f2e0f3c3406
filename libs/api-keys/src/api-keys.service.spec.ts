import { LocalKeyChangeBroadcast } from './key-change-broadcast';
import { ApiKeyAuthenticator } from './api-key-authenticator';
import { ApiKeyRequestError } from './api-key.errors';
import { resolveOptions } from './api-keys.options';
import { ApiKeys, IssueApiKey } from './api-keys.service';
import { InMemoryApiKeyStore } from '@pet-adoption/api-keys/testing';

describe('ApiKeys', () => {
  let store: InMemoryApiKeyStore;
  let authenticator: ApiKeyAuthenticator;
  let keys: ApiKeys;

  beforeEach(() => {
    store = new InMemoryApiKeyStore();
    const options = resolveOptions({
      keyPrefix: 'pet_live_',
      plans: {
        free: { perMinute: 5, perDay: 50, openOrders: 5, webhookEndpoints: 3 },
        pro: { perMinute: 300, perDay: 10_000, openOrders: 50, webhookEndpoints: 10 },
        business: { perMinute: 1000, perDay: 100_000, openOrders: 500, webhookEndpoints: 50 },
      },
      scopes: { known: ['read', 'write', 'admin'], defaults: ['read', 'write'] },
    });
    authenticator = new ApiKeyAuthenticator(store, new LocalKeyChangeBroadcast(), options);
    keys = new ApiKeys(store, authenticator, new LocalKeyChangeBroadcast(), options);
  });
  afterEach(() => authenticator.onModuleDestroy());

  it('issues a key once, stores only its hash and prefix, and lists it without secrets', async () => {
    const { apiKey, key } = await keys.issue({ name: 'shop', plan: 'free' });
    expect(key).toMatch(/^pet_live_/);
    expect(apiKey).toMatchObject({
      name: 'shop',
      plan: 'free',
      limits: { perMinute: 5, perDay: 50 },
      prefix: key.slice(0, 13),
    });
    expect(JSON.stringify(store.records)).not.toContain(key);
    expect(JSON.stringify(await keys.list())).not.toContain(key);
    expect(JSON.stringify(await keys.list())).not.toContain(store.records[0].hash);
  });

  it("gives the plans the specification's limits by default", async () => {
    const defaults = new ApiKeys(
      store,
      authenticator,
      new LocalKeyChangeBroadcast(),
      resolveOptions({ keyPrefix: 'pet_live_' }),
    );
    const limitsOf = async (plan: 'free' | 'pro' | 'business') =>
      (await defaults.issue({ name: plan, plan })).apiKey.limits;
    expect(await limitsOf('free')).toEqual({
      perMinute: 60,
      perDay: 1_000,
      openOrders: 5,
      webhookEndpoints: 3,
    });
    expect(await limitsOf('pro')).toEqual({
      perMinute: 300,
      perDay: 10_000,
      openOrders: 50,
      webhookEndpoints: 10,
    });
    expect(await limitsOf('business')).toEqual({
      perMinute: 1_000,
      perDay: 100_000,
      openOrders: 500,
      webhookEndpoints: 50,
    });
  });

  it('keeps the own limits of an enterprise key', async () => {
    const { apiKey } = await keys.issue({
      name: 'big',
      plan: 'enterprise',
      limits: { perMinute: 5000, perDay: 1_000_000 },
    });
    expect(apiKey.limits).toEqual({
      perMinute: 5000,
      perDay: 1_000_000,
      openOrders: 500,
      webhookEndpoints: 50,
    });
    const capped = await keys.issue({
      name: 'capped',
      plan: 'enterprise',
      limits: { perMinute: 5000, perDay: 1_000_000, openOrders: 7, webhookEndpoints: 4 },
    });
    expect(capped.apiKey.limits.openOrders).toBe(7);
    expect((await keys.list()).find((k) => k.name === 'capped')!.limits.openOrders).toBe(7);
    expect(capped.apiKey.limits.webhookEndpoints).toBe(4);
    expect((await keys.list()).find((k) => k.name === 'capped')!.limits.webhookEndpoints).toBe(4);
  });

  it.each<[string, IssueApiKey, RegExp]>([
    ['an unknown plan', { name: 'a', plan: 'gold' as never }, /plan must be one of/],
    ['an enterprise key without limits', { name: 'a', plan: 'enterprise' }, /limits are required/],
    [
      'limits on a free key',
      { name: 'a', plan: 'free', limits: { perMinute: 1, perDay: 1 } },
      /cannot be given/,
    ],
    [
      'a zero limit',
      { name: 'a', plan: 'enterprise', limits: { perMinute: 0, perDay: 10 } },
      /perMinute must be a positive/,
    ],
    [
      'a zero cap on open orders',
      { name: 'a', plan: 'enterprise', limits: { perMinute: 1, perDay: 1, openOrders: 0 } },
      /openOrders must be a positive/,
    ],
    [
      'a zero cap on webhook endpoints',
      { name: 'a', plan: 'enterprise', limits: { perMinute: 1, perDay: 1, webhookEndpoints: 0 } },
      /webhookEndpoints must be a positive/,
    ],
    [
      'a negative limit',
      { name: 'a', plan: 'enterprise', limits: { perMinute: 1, perDay: -1 } },
      /perDay must be a positive/,
    ],
    [
      'a fractional limit',
      { name: 'a', plan: 'enterprise', limits: { perMinute: 1.5, perDay: 10 } },
      /perMinute/,
    ],
    [
      'a minute limit above the day limit',
      { name: 'a', plan: 'enterprise', limits: { perMinute: 11, perDay: 10 } },
      /cannot exceed/,
    ],
    ['an empty name', { name: ' ', plan: 'free' }, /name/],
    ['a name of 101 characters', { name: '🔑'.repeat(101), plan: 'free' }, /1 to 100/],
    ['a name with a NUL character', { name: 'a\u0000b', plan: 'free' }, /NUL/],
    ['a name with a lone surrogate', { name: 'a\udc00', plan: 'free' }, /surrogate/],
  ])('refuses %s', async (_, request, message) => {
    await expect(keys.issue(request)).rejects.toThrow(ApiKeyRequestError);
    await expect(keys.issue(request)).rejects.toThrow(message);
    expect(store.records).toHaveLength(0);
  });

  it('gives a key the default scopes unless it names its own, and shows them', async () => {
    const plain = await keys.issue({ name: 'plain', plan: 'free' });
    const own = await keys.issue({ name: 'own', plan: 'free', scopes: ['admin'] });
    expect(plain.apiKey.scopes).toEqual(['read', 'write']);
    expect(own.apiKey.scopes).toEqual(['admin']);
    expect((await keys.list()).map((key) => key.scopes)).toEqual([['read', 'write'], ['admin']]);
    const request = { headers: { authorization: `Bearer ${own.key}` } };
    expect(await authenticator.authenticate(request)).toMatchObject({
      client: { scopes: ['admin'] },
    });
  });

  it.each([
    ['an empty list', [], 'scopes must name at least one scope.'],
    ['an unknown scope', ['read', 'delete'], 'scopes must each be one of read, write, admin.'],
    ['a repeated scope', ['read', 'read'], 'scopes must not repeat a scope.'],
    ['not a list', 'read', 'scopes must be a list.'],
  ])('refuses %s of scopes', async (_, scopes, message) => {
    const request = { name: 'shop', plan: 'free', scopes } as unknown as IssueApiKey;
    await expect(keys.issue(request)).rejects.toEqual(
      new ApiKeyRequestError('validation_failed', message),
    );
    expect(store.records).toHaveLength(0);
  });

  it('counts a name in characters: 100 emoji are a valid name, stored as given', async () => {
    const name = '🔑'.repeat(100);
    expect((await keys.issue({ name, plan: 'free' })).apiKey.name).toBe(name);
  });

  it('revokes a key once, and reports an unknown one as not found', async () => {
    await keys.issue({ name: 'a', plan: 'free' });
    await keys.revoke('1');
    expect((await keys.list())[0].revokedAt).toBeInstanceOf(Date);
    await expect(keys.revoke('1')).rejects.toMatchObject({ code: 'not_found' });
    await expect(keys.revoke('99')).rejects.toMatchObject({ code: 'not_found' });
  });
});
