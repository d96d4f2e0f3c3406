import { Injectable } from '@nestjs/common';
import { Requester } from '../../common/requester';
import { keyWithinReach } from './key-management';
import { OrganizationKeys } from './organization-keys';

@Injectable()
export class RevokeOrganizationKey {
  constructor(private readonly keys: OrganizationKeys) {}

  /**
   * Revokes a key of the requester's organisation whose scopes are within the requester's:
   * refused on every instance from then on; its placed orders are cancelled (`key_revoked`) by the
   * sweep every instance runs.
   */
  async execute(requester: Requester, id: string): Promise<void> {
    await keyWithinReach(this.keys, requester, id);
    await this.keys.revoke(id);
  }
}
