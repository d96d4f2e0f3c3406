import { Idempotency, IdempotentRequest, IdempotentResult } from './idempotency';

/** Keeps what `once` is given, as the PostgreSQL adapter records it (in JSON). */
class RecordingIdempotency extends Idempotency {
  readonly records = new Map<string, { fingerprint: string; value: string }>();

  async once<T>(
    request: IdempotentRequest,
    create: () => Promise<T>,
  ): Promise<IdempotentResult<T>> {
    const earlier = this.records.get(request.key);
    if (earlier) return { value: JSON.parse(earlier.value) as T, replayed: true };
    const value = await create();
    this.records.set(request.key, {
      fingerprint: request.fingerprint,
      value: JSON.stringify(value),
    });
    return { value, replayed: false };
  }

  onceApart<T>(request: IdempotentRequest, create: () => Promise<T>) {
    return this.once(request, create);
  }
}

describe('Idempotency.onceSealed', () => {
  const request = { scope: 'key:7', key: 'b1946ac9-2a8c-4d31-a3f8-5f0d7e4a9c11', fingerprint: 'f' };
  const secret = 'pet_live_0123456789abcdefghijklmnopqrstuvwxyzABCDEFG';

  it('answers a retry with the secret the first creation made, created once', async () => {
    const idempotency = new RecordingIdempotency();
    let created = 0;
    const create = async () => ({ id: ++created, secret });
    const first = await idempotency.onceSealed(request, create);
    const retry = await idempotency.onceSealed(request, create);
    expect(first).toEqual({ value: { id: 1, secret }, replayed: false });
    expect(retry).toEqual({ value: { id: 1, secret }, replayed: true });
    expect(created).toBe(1);
  });

  it('records neither the secret nor the Idempotency-Key readably', async () => {
    const idempotency = new RecordingIdempotency();
    await idempotency.onceSealed(request, async () => ({ id: 1, secret }));
    const [[storedKey, { value }]] = [...idempotency.records];
    expect(storedKey).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(storedKey).not.toContain(request.key);
    expect(value).not.toContain(secret);
    expect(value).not.toContain(secret.slice(10, 30));
  });

  it('refuses a record that was tampered with', async () => {
    const idempotency = new RecordingIdempotency();
    await idempotency.onceSealed(request, async () => ({ secret }));
    const [[storedKey, record]] = [...idempotency.records];
    const sealed = JSON.parse(record.value) as { data: string };
    const tampered = { ...sealed, data: Buffer.from('{"secret":"x"}').toString('base64') };
    idempotency.records.set(storedKey, { ...record, value: JSON.stringify(tampered) });
    await expect(idempotency.onceSealed(request, async () => ({ secret }))).rejects.toThrow();
  });
});
