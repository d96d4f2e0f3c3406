/**
 * The RFC 8288 link to a listing's next page: `address` with the query given (absent values left
 * out, in the order given), as `Link: <...>; rel="next"`.
 */
export function nextPageLink(address: string, query: Record<string, string | undefined>): string {
  const next = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) next.set(name, value);
  return `<${address}?${next}>; rel="next"`;
}

/** The `Link` response header of a listing, as the OpenAPI document states it. */
export const nextPageLinkHeader = (items: string) => ({
  Link: {
    description: `RFC 8288 link to the next page (\`rel="next"\`), present when more ${items} match`,
    schema: { type: 'string' },
  },
});
