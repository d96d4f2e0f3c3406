export type BearerResult =
  { kind: 'token'; token: string } | { kind: 'missing' } | { kind: 'malformed' };

// RFC 6750: the scheme, one or more spaces, a b64token. The scheme name is case-insensitive.
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i;

/** Reads the token of an `Authorization: Bearer <token>` header, without judging the token. */
export function parseBearer(header: string | string[] | undefined): BearerResult {
  if (header === undefined || header === '') return { kind: 'missing' };
  if (Array.isArray(header)) return { kind: 'malformed' };
  const match = BEARER.exec(header.trim());
  return match ? { kind: 'token', token: match[1] } : { kind: 'malformed' };
}
