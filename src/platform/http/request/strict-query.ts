/**
 * Where a query string's refusal travels: a symbol member of the parsed query (invisible to
 * `Object.keys`, so to whitelisting), read by the validation pipe. The router's query parser may
 * not throw (nothing would answer the request), so the refusal waits for the pipe, as a body's
 * parse failure waits for its handler (json-body.ts).
 */
export const QUERY_REFUSAL = Symbol('query refusal');

export type ParsedQuery = Record<string, string | string[]> & { [QUERY_REFUSAL]?: string };

/** One component of a query: `+` is a space, every `%XX` must be valid UTF-8 percent-encoding. */
function decoded(component: string): string | undefined {
  try {
    return decodeURIComponent(component.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/**
 * A query string parsed as node:querystring does (an object without a prototype, so that
 * `__proto__` stays a plain, refused parameter; a repeated name gives an array; `+` is a space),
 * but strictly: a `%` not followed by two hex digits, or percent-encoded bytes that are not UTF-8
 * (`%E0%A4%A`, `%FF`, `%ED%A0%80`, a lone surrogate), make the whole query refused rather than
 * read with U+FFFD in place of what could not be decoded.
 */
export function parseQueryStrictly(query: string): ParsedQuery {
  const parsed = Object.create(null) as ParsedQuery;
  if (query.length === 0) return parsed;
  for (const pair of query.split('&')) {
    if (pair.length === 0) continue;
    const equals = pair.indexOf('=');
    const rawName = equals === -1 ? pair : pair.slice(0, equals);
    const name = decoded(rawName);
    const value = decoded(equals === -1 ? '' : pair.slice(equals + 1));
    if (name === undefined || value === undefined) {
      parsed[QUERY_REFUSAL] =
        `The query parameter ${JSON.stringify(rawName)} is not validly percent-encoded (each % must start the UTF-8 bytes of a character, as %C3%A9 for é).`;
      return parsed;
    }
    const earlier = parsed[name];
    if (earlier === undefined) parsed[name] = value;
    else if (Array.isArray(earlier)) earlier.push(value);
    else parsed[name] = [earlier, value];
  }
  return parsed;
}

/** Why a URL's query string is refused, or null (the query of `url`, after its first `?`). */
export function queryProblemOf(url: string): string | null {
  const start = url.indexOf('?');
  return start === -1 ? null : (parseQueryStrictly(url.slice(start + 1))[QUERY_REFUSAL] ?? null);
}
