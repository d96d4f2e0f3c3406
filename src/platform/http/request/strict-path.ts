/**
 * Why a URL's path is refused, or null: every `%` must start a valid percent-encoding of UTF-8
 * (`/v1/pets/%E0`, `/v1/pets/%ZZ` and `/v1/pets/%ED%A0%80` are refused), as in a query
 * (strict-query.ts). Fastify's router otherwise reads such a path as some other path, or as no
 * route at all (a 404 saying nothing of the encoding).
 */
export function pathProblemOf(url: string): string | null {
  const end = url.indexOf('?');
  const path = end === -1 ? url : url.slice(0, end);
  if (!path.includes('%')) return null;
  try {
    decodeURIComponent(path);
    return null;
  } catch {
    return 'The path is not validly percent-encoded (each % must start the UTF-8 bytes of a character, as %C3%A9 for é).';
  }
}
