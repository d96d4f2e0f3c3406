import { ApiKeyRecord } from './api-key';
import { ApiKeyAuthenticator } from './api-key-authenticator';
import { resolveOptions } from './api-keys.options';
import { ApiKeys } from './api-keys.service';
import { LocalKeyChangeBroadcast } from './key-change-broadcast';
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

/** A store whose renewals wait until the test lets them answer. */
class GatedRenewals extends InMemoryApiKeyStore {
  private gates: (() => void)[] = [];

  override async findByIds(ids: readonly string[]): Promise<ApiKeyRecord[]> {
    const answer = await super.findByIds(ids);
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
    const broadcast = new LocalKeyChangeBroadcast();
    const authenticator = new ApiKeyAuthenticator(store, broadcast, options);
    let now = 1_000_000;
    authenticator.now = () => now;
    // Another instance: its changes are not broadcast to this one.
    const another = new LocalKeyChangeBroadcast();
    const other = new ApiKeyAuthenticator(store, another, options);
    other.now = () => now;
    const elsewhere = new ApiKeys(store, other, another, options);
    return {
      store,
      authenticator,
      broadcast,
      elsewhere,
      other,
      keys: new ApiKeys(store, authenticator, broadcast, options),
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

  it('renews the trust in keys used within keepWarmMs, all in one look-up before it lapses, and in no others', async () => {
    const { store, authenticator, issueElsewhere, elsewhere, advance } = track(setUp());
    const used = await issueElsewhere();
    const idle = await issueElsewhere();
    const [usedId, idleId] = (await store.list()).map((record) => record.id);
    for (const key of [used, idle]) await authenticator.authenticate(authorization(key));
    const findByIds = jest.spyOn(store, 'findByIds');
    advance(400);
    // More than half of each trust is left: nothing to renew yet.
    await authenticator.renewTrust();
    expect(findByIds).not.toHaveBeenCalled();
    advance(200);
    await authenticator.renewTrust();
    expect(findByIds.mock.calls).toEqual([[[usedId, idleId]]]);
    const lookUps = store.lookUps;
    // Past the first look-up's trust (1 s), the renewed one answers without a look-up of its own.
    advance(500);
    expect((await authenticator.authenticate(authorization(used))).ok).toBe(true);
    expect(store.lookUps).toBe(lookUps);
    await authenticator.renewTrust();
    // Ten seconds after its last use, a key is no longer renewed; the one in use still is.
    for (let i = 0; i < 22; i++) {
      advance(500);
      expect(authenticator.authenticateNow(authorization(used))?.ok).toBe(true);
      await authenticator.renewTrust();
    }
    expect(findByIds.mock.calls.at(-1)).toEqual([[usedId]]);
    // A renewal reads the record again: revoked elsewhere, unheard of here, it is refused.
    await elsewhere.revoke(usedId);
    advance(500);
    await authenticator.renewTrust();
    expect(authenticator.authenticateNow(authorization(used))).toEqual({
      ok: false,
      reason: 'invalid',
    });
  });

  it('keeps no renewal of a key changed while the renewal was under way, and keeps the others', async () => {
    const store = new GatedRenewals();
    const { authenticator, issueElsewhere, advance } = track(setUp(store));
    const [first, second] = [await issueElsewhere(), await issueElsewhere()];
    for (const key of [first, second]) await authenticator.authenticate(authorization(key));
    const [firstId] = (await store.list()).map((record) => record.id);
    advance(600);
    const renewal = authenticator.renewTrust();
    await new Promise((resolve) => setImmediate(resolve));
    // The first key is revoked, and the change heard (a broadcast), while the renewal, which read
    // both before, waits; a request looks the first up anew meanwhile.
    await store.revoke(firstId, new Date());
    authenticator.forget(firstId);
    const refused = { ok: false, reason: 'invalid' };
    expect(await authenticator.authenticate(authorization(first))).toEqual(refused);
    store.openGates();
    await renewal;
    // The renewal's read of the first, from before its revocation, is not kept; the second's is.
    expect(await authenticator.authenticate(authorization(first))).toEqual(refused);
    advance(500);
    const lookUps = store.lookUps;
    expect((await authenticator.authenticate(authorization(second))).ok).toBe(true);
    expect(store.lookUps).toBe(lookUps);
  });

  describe('keys that expire, and rolls with an overlap', () => {
    const atInstant = (store: InMemoryApiKeyStore, authenticator: ApiKeyAuthenticator) => {
      let now = Date.now();
      authenticator.now = () => now;
      store.now = () => now;
      return (ms: number) => (now += ms);
    };

    it('refuses a key from its expiresAt on, as expired, without a look-up', async () => {
      const { store, authenticator, keys } = track(setUp());
      const advance = atInstant(store, authenticator);
      const { key } = await keys.issue({
        name: 'a',
        plan: 'free',
        expiresAt: new Date(authenticator.now() + 500),
      });
      expect((await authenticator.authenticate(authorization(key))).ok).toBe(true);
      advance(500);
      expect(authenticator.authenticateNow(authorization(key))).toEqual({
        ok: false,
        reason: 'expired',
      });
      expect(store.lookUps).toBe(0);
    });

    it('lets the old secret work until the overlap ends, and the new one at once, here and on an instance that looks it up', async () => {
      const { store, authenticator, keys, other } = track(setUp());
      const advance = atInstant(store, authenticator);
      other.now = authenticator.now;
      const issued = await keys.issue({ name: 'a', plan: 'free' });
      expect((await other.authenticate(authorization(issued.key))).ok).toBe(true);
      const rolled = await keys.roll(issued.apiKey.id, 60);
      expect(rolled.key).not.toBe(issued.key);
      const overlapEnd = rolled.apiKey.previousSecretValidUntil!.getTime();
      expect(overlapEnd - Date.now()).toBeGreaterThan(59_000);
      expect(overlapEnd - Date.now()).toBeLessThanOrEqual(60_000);
      // The other instance trusts its look-up of the old record until its trust expires.
      advance(1_001);
      for (const instance of [authenticator, other]) {
        expect((await instance.authenticate(authorization(rolled.key))).ok).toBe(true);
        expect((await instance.authenticate(authorization(issued.key))).ok).toBe(true);
      }
      advance(overlapEnd - authenticator.now());
      for (const instance of [authenticator, other]) {
        expect(await instance.authenticate(authorization(issued.key))).toEqual({
          ok: false,
          reason: 'replaced',
        });
        expect((await instance.authenticate(authorization(rolled.key))).ok).toBe(true);
      }
    });

    it('refuses the old secret at once after a roll without overlap, on the instance that rolled it', async () => {
      const { authenticator, keys } = track(setUp());
      const issued = await keys.issue({ name: 'a', plan: 'free' });
      expect((await authenticator.authenticate(authorization(issued.key))).ok).toBe(true);
      const rolled = await keys.roll(issued.apiKey.id, 0);
      expect((await authenticator.authenticate(authorization(issued.key))).ok).toBe(false);
      expect((await authenticator.authenticate(authorization(rolled.key))).ok).toBe(true);
    });

    it('keeps two secrets at most: a second roll ends the first overlap at once', async () => {
      const { authenticator, keys } = track(setUp());
      const first = await keys.issue({ name: 'a', plan: 'free' });
      const second = await keys.roll(first.apiKey.id, 3600);
      const third = await keys.roll(first.apiKey.id, 3600);
      expect((await authenticator.authenticate(authorization(first.key))).ok).toBe(false);
      expect((await authenticator.authenticate(authorization(second.key))).ok).toBe(true);
      expect((await authenticator.authenticate(authorization(third.key))).ok).toBe(true);
    });

    it('refuses an overlap out of bounds, and a roll of a revoked or unknown key', async () => {
      const { keys } = track(setUp());
      const { apiKey } = await keys.issue({ name: 'a', plan: 'free' });
      for (const overlap of [-1, 604_801, 1.5, Number.NaN]) {
        await expect(keys.roll(apiKey.id, overlap)).rejects.toThrow(
          'overlapSeconds must be a whole number of seconds from 0 to 604800.',
        );
      }
      await keys.revoke(apiKey.id);
      await expect(keys.roll(apiKey.id, 0)).rejects.toThrow(
        `No active API key with id ${apiKey.id}.`,
      );
      await expect(keys.roll('999', 0)).rejects.toThrow('No active API key with id 999.');
    });

    it('refuses to issue a key that expires in the past or more than two years ahead', async () => {
      const { keys, authenticator } = track(setUp());
      const now = authenticator.now();
      const day = 86_400_000;
      for (const expiresAt of [new Date(now), new Date(now + 731 * day + 1)]) {
        await expect(keys.issue({ name: 'a', plan: 'free', expiresAt })).rejects.toThrow(
          'expiresAt must be an instant in the future, at most 731 days away.',
        );
      }
      for (const expiresAt of [new Date(now + 1), new Date(now + 731 * day)]) {
        await expect(keys.issue({ name: 'a', plan: 'free', expiresAt })).resolves.toBeDefined();
      }
    });
  });

  describe('what every instance learns of changed keys', () => {
    it('forgets a key another instance revoked when the change is broadcast, before its trust expires', async () => {
      const { authenticator, broadcast, issueElsewhere, elsewhere } = track(setUp());
      const key = await issueElsewhere();
      expect((await authenticator.authenticate(authorization(key))).ok).toBe(true);
      await authenticator.onModuleInit();
      const [{ id }] = await elsewhere.list();
      await elsewhere.revoke(id);
      expect((await authenticator.authenticate(authorization(key))).ok).toBe(true);
      await broadcast.publish({ keyId: id, secrets: [], ended: [] });
      expect(await authenticator.authenticate(authorization(key))).toEqual({
        ok: false,
        reason: 'invalid',
      });
    });

    it('knows the secrets a broadcast change names at once, without a look-up, and forgets those it ends', async () => {
      const { authenticator, broadcast, store, elsewhere } = track(setUp());
      await authenticator.onModuleInit();
      const issued = await elsewhere.issue({ name: 'a', plan: 'free' });
      expect(authenticator.isUnverified(authorization(issued.key))).toBe(true);
      const hash = store.records[0].hash;
      await broadcast.publish({
        keyId: issued.apiKey.id,
        secrets: [{ hash: hash.slice(0, 16), until: Infinity }],
        ended: [],
      });
      expect(authenticator.isUnverified(authorization(issued.key))).toBe(false);
      expect(store.lookUps).toBe(0);
      await broadcast.publish({ keyId: issued.apiKey.id, secrets: [], ended: [hash.slice(0, 16)] });
      expect(authenticator.isUnverified(authorization(issued.key))).toBe(true);
    });

    it('waits a bounded while for a key it has never seen to become known, without a look-up', async () => {
      const { authenticator, broadcast, store, elsewhere } = track(setUp());
      await authenticator.onModuleInit();
      const issued = await elsewhere.issue({ name: 'a', plan: 'free' });
      const hash = store.records[0].hash;
      // Heard 20 ms after it is asked about: known within the 100 ms it may wait.
      setTimeout(
        () =>
          void broadcast.publish({
            keyId: issued.apiKey.id,
            secrets: [{ hash: hash.slice(0, 16), until: Infinity }],
            ended: [],
          }),
        20,
      );
      expect(await authenticator.becomesKnown(authorization(issued.key), 100)).toBe(true);
      // A key never heard of: refused once the wait is over.
      const started = Date.now();
      expect(
        await authenticator.becomesKnown(authorization('pet_test_' + 'x'.repeat(43)), 30),
      ).toBe(false);
      expect(Date.now() - started).toBeGreaterThanOrEqual(25);
      expect(await authenticator.becomesKnown({ headers: { authorization: 'Basic x' } }, 30)).toBe(
        false,
      );
      expect(store.lookUps).toBe(0);
    });

    it('says every change of a key to the other instances: issued, rolled, revoked', async () => {
      const { broadcast, keys } = track(setUp());
      const heard: { keyId: string; secrets: number; ended: number }[] = [];
      broadcast.subscribe(({ keyId, secrets, ended }) =>
        heard.push({ keyId, secrets: secrets.length, ended: ended.length }),
      );
      const { apiKey } = await keys.issue({ name: 'a', plan: 'free' });
      await keys.roll(apiKey.id, 60);
      await keys.roll(apiKey.id, 0);
      await keys.revoke(apiKey.id);
      expect(heard).toEqual([
        { keyId: apiKey.id, secrets: 1, ended: 0 },
        { keyId: apiKey.id, secrets: 2, ended: 0 },
        { keyId: apiKey.id, secrets: 1, ended: 1 },
        { keyId: apiKey.id, secrets: 0, ended: 2 },
      ]);
    });

    it('learns of keys issued and rolled elsewhere from the store at each refresh, and of revoked ones', async () => {
      const { authenticator, elsewhere } = track(setUp());
      await authenticator.onModuleInit();
      const issued = await elsewhere.issue({ name: 'a', plan: 'free' });
      expect(authenticator.isUnverified(authorization(issued.key))).toBe(true);
      await authenticator.refreshKnownKeys(false);
      expect(authenticator.isUnverified(authorization(issued.key))).toBe(false);
      const rolled = await elsewhere.roll(issued.apiKey.id, 0);
      expect(authenticator.isUnverified(authorization(rolled.key))).toBe(true);
      await authenticator.refreshKnownKeys(false);
      expect(authenticator.isUnverified(authorization(rolled.key))).toBe(false);
      expect(authenticator.isUnverified(authorization(issued.key))).toBe(true);
      await elsewhere.revoke(issued.apiKey.id);
      await authenticator.refreshKnownKeys(false);
      expect(authenticator.isUnverified(authorization(rolled.key))).toBe(true);
    });
  });
});
