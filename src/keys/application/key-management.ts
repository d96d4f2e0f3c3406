import { isStaffOf } from '../../common/ownership';
import { Requester } from '../../common/requester';
import { checkScope } from '../../common/scopes';
import { Key, KeyNotFoundError, NoOrganizationError } from '../domain/key';
import { OrganizationKeys } from './organization-keys';

/**
 * The organisation whose keys the requester manages: its own, with `organization:manage` (checked
 * first: a 403 says nothing of what exists). A key without an organisation manages none.
 */
export function managedOrganization(requester: Requester): number {
  checkScope(['organization:manage'], requester.scopes);
  if (requester.organizationId === null) throw new NoOrganizationError();
  return requester.organizationId;
}

/** A live key of the requester's organisation; another's, or none, is a 404 alike. */
export async function managedKey(
  keys: OrganizationKeys,
  requester: Requester,
  id: string,
): Promise<Key> {
  managedOrganization(requester);
  const key = await keys.find(id);
  if (
    !key ||
    key.revokedAt ||
    key.organizationId === null ||
    !isStaffOf(requester, key.organizationId)
  ) {
    throw new KeyNotFoundError(id);
  }
  return key;
}
