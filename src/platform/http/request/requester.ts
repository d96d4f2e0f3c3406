import { ApiClient } from '@pet-adoption/api-keys';
import { Requester } from '../../../common/requester';

/**
 * The requester a use case is asked by, from the client the access guard attached: the library
 * keeps ids as text (bigints); the application's organisation ids are JSON numbers.
 */
export function requesterOf({ keyId, scopes, organizationId }: ApiClient): Requester {
  return {
    keyId,
    scopes,
    organizationId: organizationId === null ? null : Number(organizationId),
  };
}
