import { Injectable } from '@nestjs/common';
import { Requester } from '../../common/requester';
import {
  ClientIdempotencyKey,
  fingerprintOf,
  Idempotency,
} from '../../platform/idempotency/idempotency';
import { KeyWithSecret, revivedKey } from '../domain/key';
import { managedKey } from './key-management';
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
   */
  async execute(
    requester: Requester,
    id: string,
    overlapSeconds: number,
    idempotencyKey?: ClientIdempotencyKey,
  ): Promise<KeyWithSecret & { replayed: boolean }> {
    await managedKey(this.keys, requester, id);
    const roll = () => this.keys.roll(id, overlapSeconds);
    if (!idempotencyKey) return { ...(await roll()), replayed: false };
    const { value, replayed } = await this.idempotency.onceSealed(
      { ...idempotencyKey, fingerprint: fingerprintOf(['roll', id, overlapSeconds]) },
      roll,
    );
    return { key: revivedKey(value.key), secret: value.secret, replayed };
  }
}
