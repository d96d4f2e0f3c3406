import { isStaffOf } from '../../common/ownership';
import { Requester } from '../../common/requester';
import { checkScope } from '../../common/scopes';
import {
  Key,
  KeyNotFoundError,
  KeyOutranksCallerError,
  NoOrganizationError,
  scopesBeyond,
} from '../domain/key';
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

/**
 * A live key of the requester's organisation that the requester may act on (roll, revoke): one
 * whose scopes are all the requester's too (no key outranks its maker: else 403, after the 404
 * of a key that is not the organisation's, which says nothing of what another holds).
 */
export async function keyWithinReach(
  keys: OrganizationKeys,
  requester: Requester,
  id: string,
): Promise<Key> {
  const key = await managedKey(keys, requester, id);
  const beyond = scopesBeyond(key.scopes, requester.scopes);
  if (beyond.length > 0) throw new KeyOutranksCallerError(id, beyond);
  return key;
}
