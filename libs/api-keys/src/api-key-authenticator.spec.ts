import { ApiKeyRecord } from './api-key';
import { ApiKeyAuthenticator } from './api-key-authenticator';
import { resolveOptions } from './api-keys.options';
import { ApiKeys } from './api-keys.service';
import { InMemoryApiKeyStore } from '@pet-adoption/api-keys/testing';

/** A store whose look-ups wait until the test lets them answer. */
class GatedStore extends InMemoryApiKeyStore {
  private gates: (() => void)[] = [];

  override async findByHash(hash: string): Promise<ApiKeyRecord | null> {
    // The answer is read now, as a database would read it, and delivered when the gate opens.
    const answer = await super.findByHash(hash);
    await new Promise<void>((open) => this.gates.push(open));
    return answer;
  }

  openGates(): void {
    this.gates.splice(0).forEach((open) => open());
  }
}

describe('ApiKeyAuthenticator', () => {
  const authorization = (key: string) => ({ headers: { authorization: `Bearer ${key}` } });
  const setUp = (store = new InMemoryApiKeyStore(), maxCacheEntries = 10_000) => {
    const options = resolveOptions({ keyPrefix: 'pet_test_', maxCacheEntries });
    const authenticator = new ApiKeyAuthenticator(store, options);
    let now = 1_000_000;
    authenticator.now = () => now;
    const elsewhere = new ApiKeys(store, new ApiKeyAuthenticator(store, options), options);
    return {
      store,
      authenticator,
      keys: new ApiKeys(store, authenticator, options),
      /** Issues a key through another instance, which this one has never seen. */
      issueElsewhere: async () => (await elsewhere.issue({ name: 'a', plan: 'free' })).key,
      advance: (ms: number) => (now += ms),
    };
  };
  let destroy: ApiKeyAuthenticator[] = [];
  afterEach(async () => {
    await Promise.all(destroy.map((a) => a.onModuleDestroy()));
    destroy = [];
  });
  const track = <T extends { authenticator: ApiKeyAuthenticator }>(t: T) => {
    destroy.push(t.authenticator);
    return t;
  };

  it('knows a key it issued itself without a look-up', async () => {
    const { store, authenticator, keys } = track(setUp());
    const { key } = await keys.issue({ name: 'a', plan: 'free' });
    expect((await authenticator.authenticate(authorization(key))).ok).toBe(true);
    expect(store.lookUps).toBe(0);
  });

  it('looks a key up once per cache lifetime, then again, as a known key', async () => {
    const { store, authenticator, issueElsewhere, advance } = track(setUp());
    const key = await issueElsewhere();
    expect(authenticator.isUnverified(authorization(key))).toBe(true);
    for (let i = 0; i < 5; i++)
      expect((await authenticator.authenticate(authorization(key))).ok).toBe(true);
    expect(store.lookUps).toBe(1);
    advance(2_001);
    // Its trust has expired, but it is no guess: checking it again costs the address nothing.
    expect(authenticator.isUnverified(authorization(key))).toBe(false);
    await authenticator.authenticate(authorization(key));
    expect(store.lookUps).toBe(2);
  });

  it('answers synchronously only what needs no look-up, and then as authenticate does', async () => {
    const { authenticator, issueElsewhere, advance } = track(setUp());
    const key = await issueElsewhere();
    expect(authenticator.authenticateNow({ headers: {} })).toEqual({
      ok: false,
      reason: 'missing',
    });
    expect(authenticator.authenticateNow(authorization('pet_live_other'))).toEqual({
      ok: false,
      reason: 'invalid',
    });
    // Never found here: only a look-up can tell.
    expect(authenticator.authenticateNow(authorization(key))).toBeUndefined();
    const looked = await authenticator.authenticate(authorization(key));
    expect(authenticator.authenticateNow(authorization(key))).toEqual(looked);
    advance(2_001);
    // Its trust has expired: a look-up again.
    expect(authenticator.authenticateNow(authorization(key))).toBeUndefined();
    await authenticator.authenticate(authorization('pet_test_made-up'));
    expect(authenticator.authenticateNow(authorization('pet_test_made-up'))).toEqual({
      ok: false,
      reason: 'invalid',
    });
  });

  it('answers twice for the same request with one look-up', async () => {
    const { store, authenticator, issueElsewhere } = track(setUp());
    const request = authorization(await issueElsewhere());
    await authenticator.authenticate(request);
    await authenticator.authenticate(request);
    expect(store.lookUps).toBe(1);
  });

  it('asks the store once for a flood of one made-up key, and remembers the answer briefly', async () => {
    const { store, authenticator, advance } = track(setUp());
    const fake = authorization(`pet_test_${'A'.repeat(43)}`);
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => authenticator.authenticate({ ...fake })),
    );
    expect(answers.every((answer) => !answer.ok)).toBe(true);
    expect(store.lookUps).toBe(1);
    expect(authenticator.isUnverified(fake)).toBe(false);
    advance(1_001);
    expect(authenticator.isUnverified({ ...fake })).toBe(true);
  });

  it('needs no look-up for what it can refuse at once', () => {
    const { authenticator } = track(setUp());
    for (const headers of [
      {},
      { authorization: 'Basic x' },
      { authorization: 'Bearer pet_live_x' },
    ]) {
      expect(authenticator.isUnverified({ headers })).toBe(false);
    }
  });

  it('keeps made-up keys from evicting real ones, and both memories bounded', async () => {
    const { store, authenticator, issueElsewhere } = track(setUp(new InMemoryApiKeyStore(), 100));
    const real = await issueElsewhere();
    await authenticator.authenticate(authorization(real));
    for (let i = 0; i < 1000; i++)
      await authenticator.authenticate(authorization(`pet_test_fake${i}`));
    const sizes = authenticator as unknown as {
      known: { size: number };
      unknown: { size: number };
    };
    expect(sizes.unknown.size).toBe(100);
    expect(sizes.known.size).toBe(1);
    const before = store.lookUps;
    expect((await authenticator.authenticate(authorization(real))).ok).toBe(true);
    expect(store.lookUps).toBe(before);
  });

  it('never remembers a look-up that was in flight when the key was revoked', async () => {
    const store = new GatedStore();
    const { authenticator, keys, issueElsewhere } = track(setUp(store));
    const key = await issueElsewhere();
    const before = authenticator.authenticate(authorization(key));
    await new Promise((resolve) => setImmediate(resolve));
    await keys.revoke((await keys.list())[0].id);
    store.openGates();
    // The request that was in flight before the revocation may pass; the next one may not.
    expect((await before).ok).toBe(true);
    const after = authenticator.authenticate(authorization(key));
    await new Promise((resolve) => setImmediate(resolve));
    store.openGates();
    expect(await after).toEqual({ ok: false, reason: 'invalid' });
  });

  it('refuses a request that comes after the revocation, though a look-up begun before it is in flight', async () => {
    const store = new GatedStore();
    const { authenticator, keys, issueElsewhere } = track(setUp(store));
    const key = await issueElsewhere();
    const before = authenticator.authenticate(authorization(key));
    await new Promise((resolve) => setImmediate(resolve));
    await keys.revoke((await keys.list())[0].id);
    // Asked while the earlier look-up still waits: it must not share that look-up's answer.
    const after = authenticator.authenticate(authorization(key));
    await new Promise((resolve) => setImmediate(resolve));
    store.openGates();
    expect((await before).ok).toBe(true);
    expect(await after).toEqual({ ok: false, reason: 'invalid' });
  });

  it('records the last use in one batch, not per request', async () => {
    const { store, authenticator, keys } = track(setUp());
    const { key } = await keys.issue({ name: 'a', plan: 'free' });
    const recordUse = jest.spyOn(store, 'recordUse');
    for (let i = 0; i < 10; i++) await authenticator.authenticate(authorization(key));
    expect(recordUse).not.toHaveBeenCalled();
    await authenticator.flushLastUsed();
    expect(recordUse).toHaveBeenCalledTimes(1);
    expect(store.records[0].lastUsedAt).toBeInstanceOf(Date);
  });
});
