import { createHash } from 'node:crypto';

/**
 * The opaque value of a listing's strong entity tag: the first 128 bits of the SHA-256 of the
 * exact JSON sent and of its Link header (a page whose members are the same but which gained or
 * lost its next page is another representation), in base64url (22 characters).
 */
export function representationTag(json: string, link: string | undefined): string {
  const hash = createHash('sha256').update(json);
  // The JSON never ends in a line break: the separator keeps the two apart.
  if (link !== undefined) hash.update('\n').update(link);
  return hash.digest().subarray(0, 16).toString('base64url');
}

/** The opaque value of a strong entity tag (`"3"` gives `3`); undefined for anything else. */
export function opaqueOf(entityTag: string): string | undefined {
  return /^"([^"]*)"$/.exec(entityTag)?.[1];
}
