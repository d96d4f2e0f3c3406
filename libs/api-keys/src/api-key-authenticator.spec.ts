import { ApiKeyAuthenticator } from './api-key-authenticator';
import { resolveOptions } from './api-keys.options';
import { ApiKeys } from './api-keys.service';
import { InMemoryApiKeyStore } from './testing/in-memory-api-key.store';

describe('ApiKeyAuthenticator', () => {
  const setUp = (maxCacheEntries = 10_000) => {
    const store = new InMemoryApiKeyStore();
    const options = resolveOptions({ keyPrefix: 'pet_test_', maxCacheEntries });
    const authenticator = new ApiKeyAuthenticator(store, options);
    return { store, authenticator, keys: new ApiKeys(store, authenticator, options) };
  };

  it('asks the store once for repeated uses of a key within the cache lifetime', async () => {
    const { store, authenticator, keys } = setUp();
    const { key } = await keys.issue({ name: 'a', plan: 'free' });
    for (let i = 0; i < 5; i++) {
      expect(
        (await authenticator.authenticate({ headers: { authorization: `Bearer ${key}` } })).ok,
      ).toBe(true);
    }
    expect(store.lookUps).toBe(1);
    await authenticator.onModuleDestroy();
  });

  it('answers twice for the same request with one look-up', async () => {
    const { store, authenticator, keys } = setUp();
    const { key } = await keys.issue({ name: 'a', plan: 'free' });
    const request = { headers: { authorization: `Bearer ${key}` } };
    await authenticator.authenticate(request);
    await authenticator.authenticate(request);
    expect(store.lookUps).toBe(1);
    await authenticator.onModuleDestroy();
  });

  it('keeps its cache bounded under a flood of random keys', async () => {
    const { authenticator } = setUp(100);
    for (let i = 0; i < 1000; i++) {
      await authenticator.authenticate({
        headers: { authorization: `Bearer pet_test_random${i}` },
      });
    }
    expect((authenticator as unknown as { cache: { size: number } }).cache.size).toBe(100);
    await authenticator.onModuleDestroy();
  });

  it('records the last use in one batch, not per request', async () => {
    const { store, authenticator, keys } = setUp();
    const { key } = await keys.issue({ name: 'a', plan: 'free' });
    const recordUse = jest.spyOn(store, 'recordUse');
    for (let i = 0; i < 10; i++)
      await authenticator.authenticate({ headers: { authorization: `Bearer ${key}` } });
    expect(recordUse).not.toHaveBeenCalled();
    await authenticator.flushLastUsed();
    expect(recordUse).toHaveBeenCalledTimes(1);
    expect(store.records[0].lastUsedAt).toBeInstanceOf(Date);
    await authenticator.onModuleDestroy();
  });
});
