import { SCOPES } from './scopes';

/**
 * Who asks a use case for something: the API key's id and scopes, and the organisation it belongs
 * to (a shelter's staff key), if any. Use cases take it and check the scope they need themselves
 * (docs/adr/0021), then what it may do it to (src/common/ownership.ts): the HTTP edge is not the
 * only way in.
 */
export interface Requester {
  readonly keyId: string;
  readonly scopes: readonly string[];
  /** The organisation whose staff the key is; null for adopters' and integrators' keys. */
  readonly organizationId: number | null;
}

/**
 * The operator, through the admin API or the command line (ADMIN_TOKEN, or the machine itself):
 * may do what every scope allows, and belongs to no organisation.
 */
export const OPERATOR: Requester = { keyId: 'operator', scopes: SCOPES, organizationId: null };
