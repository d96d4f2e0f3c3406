/**
 * Who asks a use case for something: the API key's id and scopes. Use cases take it and check the
 * scope they need themselves (docs/adr/0021): the HTTP edge is not the only way in.
 */
export interface Requester {
  readonly keyId: string;
  readonly scopes: readonly string[];
  /** The organisation the key belongs to; none (null) for a key of no organisation. */
  readonly organizationId?: number | null;
}
