import { Injectable } from '@nestjs/common';
import { Requester } from '../../common/requester';
import { Key } from '../domain/key';
import { managedOrganization } from './key-management';
import { OrganizationKeys } from './organization-keys';

@Injectable()
export class ListOrganizationKeys {
  constructor(private readonly keys: OrganizationKeys) {}

  /** The requester's organisation's keys, revoked ones included, ascending by id. */
  execute(requester: Requester): Promise<Key[]> {
    return this.keys.listOf(managedOrganization(requester));
  }
}
