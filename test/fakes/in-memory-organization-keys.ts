import {
  KeyRequest,
  KeyUsage,
  OrganizationKeys,
  RollCondition,
  Usage,
} from '../../src/keys/application/organization-keys';
import {
  Key,
  KeyNotFoundError,
  KeyRollConflictError,
  KeyWithSecret,
} from '../../src/keys/domain/key';

/** Keys in an array, for unit tests of the key use cases: secrets are counted, not random. */
export class InMemoryOrganizationKeys extends OrganizationKeys {
  readonly rows: Key[] = [];
  /** When each key was last rolled, by id. */
  readonly rolledAt = new Map<string, number>();
  private secrets = 0;

  /** A key as the operator would issue it. */
  add(fields: Partial<Key> & Pick<Key, 'scopes' | 'organizationId'>): Key {
    const key: Key = {
      id: String(this.rows.length + 1),
      name: 'k',
      plan: 'pro',
      limits: { perMinute: 300, perDay: 10_000, openOrders: 50, webhookEndpoints: 10 },
      prefix: 'pet_test_abcd',
      expiresAt: null,
      previousSecretValidUntil: null,
      createdAt: new Date(0),
      revokedAt: null,
      lastUsedAt: null,
      ...fields,
    };
    this.rows.push(key);
    return key;
  }

  async find(id: string): Promise<Key | null> {
    return this.rows.find((key) => key.id === id) ?? null;
  }

  async listOf(organizationId: number): Promise<Key[]> {
    return this.rows.filter((key) => key.organizationId === organizationId);
  }

  async issue(request: KeyRequest): Promise<KeyWithSecret> {
    const key = this.add({ ...request, scopes: [...request.scopes] });
    return { key, secret: `secret-${++this.secrets}` };
  }

  async roll(
    id: string,
    overlapSeconds: number,
    { receivedAt, expiresAt }: RollCondition,
  ): Promise<KeyWithSecret> {
    const index = this.rows.findIndex((key) => key.id === id);
    const key = this.rows[index];
    if (!key || key.revokedAt || (key.expiresAt && key.expiresAt.getTime() <= Date.now())) {
      throw new KeyNotFoundError(id);
    }
    if ((this.rolledAt.get(id) ?? -Infinity) >= receivedAt.getTime()) {
      throw new KeyRollConflictError(id);
    }
    this.rolledAt.set(id, Date.now());
    this.rows[index] = {
      ...key,
      previousSecretValidUntil: new Date(Date.now() + overlapSeconds * 1000),
      ...(expiresAt === undefined ? {} : { expiresAt }),
    };
    return { key: this.rows[index], secret: `secret-${++this.secrets}` };
  }

  async revoke(id: string): Promise<void> {
    const index = this.rows.findIndex((key) => key.id === id);
    this.rows[index] = { ...this.rows[index], revokedAt: new Date() };
  }
}

/** A budget nobody has touched. */
export class UntouchedKeyUsage extends KeyUsage {
  async of(key: Key): Promise<Usage> {
    const window = (limit: number) => ({ limit, remaining: limit, reset: 0 });
    return { minute: window(key.limits.perMinute), day: window(key.limits.perDay) };
  }
}
