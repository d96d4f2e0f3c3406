import { InMemoryIdempotency } from '../../../test/fakes/in-memory-idempotency';
import { Requester } from '../../common/requester';
import { InsufficientScopeError } from '../../common/scopes';
import {
  ExpiryBeyondIssuerError,
  KeyNotFoundError,
  KeyOutranksCallerError,
  KeyRollConflictError,
  NoOrganizationError,
  ScopesBeyondIssuerError,
} from '../domain/key';
import { GetOwnKey } from './get-own-key.use-case';
import { IssueOrganizationKey } from './issue-organization-key.use-case';
import { ListOrganizationKeys } from './list-organization-keys.use-case';
import { RevokeOrganizationKey } from './revoke-organization-key.use-case';
import { RollKey } from './roll-key.use-case';
import {
  InMemoryOrganizationKeys,
  UntouchedKeyUsage,
} from '../../../test/fakes/in-memory-organization-keys';

const MANAGER_SCOPES = ['pets:read', 'pets:manage', 'organization:manage'];

describe('the organisation key use cases', () => {
  let keys: InMemoryOrganizationKeys;
  let manager: Requester;
  let other: Requester;

  beforeEach(() => {
    keys = new InMemoryOrganizationKeys();
    const own = keys.add({
      scopes: MANAGER_SCOPES,
      organizationId: 2,
      plan: 'enterprise',
      limits: { perMinute: 5000, perDay: 100_000, openOrders: 80, webhookEndpoints: 20 },
    });
    keys.add({ scopes: ['pets:read'], organizationId: 2 });
    keys.add({ scopes: MANAGER_SCOPES, organizationId: 3 });
    keys.add({ scopes: ['pets:read'], organizationId: null });
    manager = { keyId: own.id, scopes: MANAGER_SCOPES, organizationId: 2 };
    other = { keyId: '3', scopes: MANAGER_SCOPES, organizationId: 3 };
  });

  it("lists its own organisation's keys only", async () => {
    expect((await new ListOrganizationKeys(keys).execute(manager)).map((k) => k.id)).toEqual([
      '1',
      '2',
    ]);
    expect((await new ListOrganizationKeys(keys).execute(other)).map((k) => k.id)).toEqual(['3']);
  });

  it('needs organization:manage first, and an organisation', async () => {
    const list = new ListOrganizationKeys(keys);
    expect(() => list.execute({ ...manager, scopes: ['pets:manage'] })).toThrow(
      InsufficientScopeError,
    );
    expect(() => list.execute({ ...manager, organizationId: null })).toThrow(NoOrganizationError);
  });

  describe('IssueOrganizationKey', () => {
    it('issues a key in its organisation, on its own plan and limits, with scopes it holds', async () => {
      const { key, secret } = await new IssueOrganizationKey(
        keys,
        new InMemoryIdempotency(),
      ).execute(manager, {
        name: 'Front desk',
        scopes: ['pets:read', 'pets:manage'],
      });
      expect(secret).toBe('secret-1');
      expect(key).toMatchObject({
        name: 'Front desk',
        organizationId: 2,
        plan: 'enterprise',
        limits: { perMinute: 5000, perDay: 100_000, openOrders: 80, webhookEndpoints: 20 },
        scopes: ['pets:read', 'pets:manage'],
      });
    });

    it('issues one key for retries under one Idempotency-Key, answering its secret again', async () => {
      const issue = new IssueOrganizationKey(keys, new InMemoryIdempotency());
      const request = { name: 'Front desk', scopes: ['pets:read'] };
      const idempotency = { scope: 'key:9', key: 'retry-1' };
      const first = await issue.execute(manager, request, idempotency);
      const retry = await issue.execute(manager, request, idempotency);
      expect(retry).toEqual({ ...first, replayed: true });
      expect(first.replayed).toBe(false);
      expect(retry.key.createdAt).toBeInstanceOf(Date);
      expect(keys.rows.filter((row) => row.name === 'Front desk')).toHaveLength(1);
      await expect(
        issue.execute(manager, { ...request, name: 'Back desk' }, idempotency),
      ).rejects.toThrow('already used with a different body');
    });

    it('never hands on a scope it lacks', async () => {
      await expect(
        new IssueOrganizationKey(keys, new InMemoryIdempotency()).execute(manager, {
          name: 'Boss',
          scopes: ['pets:read', 'orders:manage', 'webhooks:manage'],
        }),
      ).rejects.toThrow(new ScopesBeyondIssuerError(['orders:manage', 'webhooks:manage']));
      expect(keys.rows).toHaveLength(4);
    });

    describe('from a key that expires', () => {
      const inAnHour = new Date(Date.now() + 3_600_000);
      let expiring: Requester;
      beforeEach(() => {
        const key = keys.add({ scopes: MANAGER_SCOPES, organizationId: 2, expiresAt: inAnHour });
        expiring = { keyId: key.id, scopes: MANAGER_SCOPES, organizationId: 2 };
      });
      const issue = (expiresAt?: Date) =>
        new IssueOrganizationKey(keys, new InMemoryIdempotency()).execute(expiring, {
          name: 'Temp',
          scopes: ['pets:read'],
          expiresAt,
        });

      it('issues keys expiring with it when none is named, or earlier when asked', async () => {
        expect((await issue()).key.expiresAt).toEqual(inAnHour);
        const sooner = new Date(inAnHour.getTime() - 60_000);
        expect((await issue(sooner)).key.expiresAt).toEqual(sooner);
        expect((await issue(inAnHour)).key.expiresAt).toEqual(inAnHour);
      });

      it('refuses a later expiry (400), issuing nothing', async () => {
        const count = keys.rows.length;
        await expect(issue(new Date(inAnHour.getTime() + 1))).rejects.toThrow(
          ExpiryBeyondIssuerError,
        );
        expect(keys.rows).toHaveLength(count);
      });

      it('rolls a key that outlives it into its own expiry, and leaves an earlier one', async () => {
        const rolled = await new RollKey(keys, new InMemoryIdempotency()).execute(
          expiring,
          '2',
          0,
          new Date(),
        );
        expect(rolled.key.expiresAt).toEqual(inAnHour);
        const sooner = new Date(inAnHour.getTime() - 60_000);
        keys.rows[1] = { ...keys.rows[1], expiresAt: sooner };
        expect(
          // Received after the first roll was applied (a later millisecond): no conflict.
          (
            await new RollKey(keys, new InMemoryIdempotency()).execute(
              expiring,
              '2',
              0,
              new Date(Date.now() + 1),
            )
          ).key.expiresAt,
        ).toEqual(sooner);
      });
    });
  });

  describe('RollKey and RevokeOrganizationKey', () => {
    it("rolls and revokes its own organisation's keys, itself included", async () => {
      const rolled = await new RollKey(keys, new InMemoryIdempotency()).execute(
        manager,
        '2',
        60,
        new Date(),
      );
      expect(rolled.key.previousSecretValidUntil).not.toBeNull();
      expect(
        (await new RollKey(keys, new InMemoryIdempotency()).execute(manager, '1', 0, new Date()))
          .key.id,
      ).toBe('1');
      await new RevokeOrganizationKey(keys).execute(manager, '2');
      expect(keys.rows[1].revokedAt).not.toBeNull();
    });

    it("answers another organisation's key, a key of none, a revoked one and an unknown one with 404, changing nothing", async () => {
      await new RevokeOrganizationKey(keys).execute(manager, '2');
      for (const id of ['3', '4', '2', '99']) {
        await expect(
          new RollKey(keys, new InMemoryIdempotency()).execute(manager, id, 0, new Date()),
        ).rejects.toThrow(KeyNotFoundError);
        await expect(new RevokeOrganizationKey(keys).execute(manager, id)).rejects.toThrow(
          KeyNotFoundError,
        );
      }
      expect(keys.rows[2]).toMatchObject({ revokedAt: null, previousSecretValidUntil: null });
    });

    it('refuses a key holding a scope the caller lacks (403), changing nothing', async () => {
      const narrow: Requester = { ...manager, scopes: ['pets:read', 'organization:manage'] };
      await expect(
        new RollKey(keys, new InMemoryIdempotency()).execute(narrow, '1', 0, new Date()),
      ).rejects.toThrow(new KeyOutranksCallerError('1', ['pets:manage']));
      await expect(new RevokeOrganizationKey(keys).execute(narrow, '1')).rejects.toThrow(
        KeyOutranksCallerError,
      );
      expect(keys.rows[0]).toMatchObject({ revokedAt: null, previousSecretValidUntil: null });
      // Its own key's scopes are within its own, and so are a narrower key's.
      await new RollKey(keys, new InMemoryIdempotency()).execute(narrow, '2', 0, new Date());
    });

    it('answers a roll that another overtook while it was under way with 409, and an expired key with 404', async () => {
      const roll = new RollKey(keys, new InMemoryIdempotency());
      const received = new Date(Date.now() - 1000);
      // Another roll, received after this one, was applied first.
      await roll.execute(manager, '2', 0, new Date());
      await expect(roll.execute(manager, '2', 0, received)).rejects.toThrow(KeyRollConflictError);
      // A roll received after it is no conflict.
      await roll.execute(manager, '2', 0, new Date(Date.now() + 1));
      keys.rows[1] = { ...keys.rows[1], expiresAt: new Date(Date.now() - 1) };
      await expect(roll.execute(manager, '2', 0, new Date(Date.now() + 2))).rejects.toThrow(
        KeyNotFoundError,
      );
    });
  });

  it('tells any key about itself and its budget, with no scope', async () => {
    const reader: Requester = { keyId: '4', scopes: ['pets:read'], organizationId: null };
    const own = await new GetOwnKey(keys, new UntouchedKeyUsage()).execute(reader);
    expect(own.key.id).toBe('4');
    expect(own.usage.minute).toEqual({ limit: 300, remaining: 300, reset: 0 });
  });
});
