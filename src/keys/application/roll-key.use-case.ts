import { Injectable } from '@nestjs/common';
import { Requester } from '../../common/requester';
import { KeyWithSecret } from '../domain/key';
import { managedKey } from './key-management';
import { OrganizationKeys } from './organization-keys';

@Injectable()
export class RollKey {
  constructor(private readonly keys: OrganizationKeys) {}

  /**
   * A new secret for a key of the requester's organisation (itself included), shown this once;
   * the old secret keeps working for `overlapSeconds`, then is refused on every instance.
   */
  async execute(requester: Requester, id: string, overlapSeconds: number): Promise<KeyWithSecret> {
    await managedKey(this.keys, requester, id);
    return this.keys.roll(id, overlapSeconds);
  }
}
