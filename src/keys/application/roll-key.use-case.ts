import { Injectable } from '@nestjs/common';
import { Requester } from '../../common/requester';
import {
  ClientIdempotencyKey,
  fingerprintOf,
  Idempotency,
} from '../../platform/idempotency/idempotency';
import { KeyWithSecret, revivedKey, rolledExpiry } from '../domain/key';
import { keyWithinReach } from './key-management';
import { OrganizationKeys } from './organization-keys';

@Injectable()
export class RollKey {
  constructor(
    private readonly keys: OrganizationKeys,
    private readonly idempotency: Idempotency,
  ) {}

  /**
   * A new secret for a key of the requester's organisation (itself included), shown this once;
   * the old secret keeps working for `overlapSeconds`, then is refused on every instance. With an
   * Idempotency-Key, a retry answers the secret of the first roll instead of rolling again (which
   * would leave the first new secret, which the client never saw, as the one in its overlap).
   * Only a key whose scopes are within the requester's (else 403); it expires no later than the
   * requester from then on; it is rolled only if no other roll of it was applied since this
   * request was received (`receivedAt`; else 409 `conflict`: of rolls in flight together one
   * wins, and no caller gets a secret already replaced); an expired or revoked key is not found.
   */
  async execute(
    requester: Requester,
    id: string,
    overlapSeconds: number,
    receivedAt: Date,
    idempotencyKey?: ClientIdempotencyKey,
  ): Promise<KeyWithSecret & { replayed: boolean }> {
    const key = await keyWithinReach(this.keys, requester, id);
    const caller = requester.keyId === id ? key : await this.keys.find(requester.keyId);
    if (!caller) throw new Error(`The key ${requester.keyId} that asks is not found.`);
    const expiresAt = rolledExpiry(caller, key);
    const roll = () => this.keys.roll(id, overlapSeconds, { receivedAt, expiresAt });
    if (!idempotencyKey) return { ...(await roll()), replayed: false };
    const { value, replayed } = await this.idempotency.onceSealed(
      { ...idempotencyKey, fingerprint: fingerprintOf(['roll', id, overlapSeconds]) },
      roll,
    );
    return { key: revivedKey(value.key), secret: value.secret, replayed };
  }
}
