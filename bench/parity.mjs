// Before anything is measured: the floor must answer as the service does, or the comparison says
// nothing. For each benchmarked operation, and for a few refusals, both get the same request and
// must agree on the status, the body (the Error code for refusals) and the headers. A case's
// `before` is sent once first (to spend a budget, say).

/** Headers whose values legitimately differ between two servers, or between two requests. */
const VARYING = new Set(['date', 'connection', 'keep-alive', 'content-length']);
/** Headers that count requests: both servers count in the same windows, one request apart. */
const COUNTING = new Set(['x-ratelimit-remaining', 'ratelimit']);

const withoutId = (text) => text.replace(/\/pets\/\d+$/, '/pets/{id}');

async function answer(target, { method = 'GET', path, headers, body }) {
  const response = await fetch(target.url + path, {
    method,
    headers: { ...headers, 'x-request-id': 'bench-parity' },
    body,
  });
  const json = await response.json();
  const headerMap = Object.fromEntries(
    [...response.headers].filter(([name]) => !VARYING.has(name)),
  );
  if (headerMap.location) headerMap.location = withoutId(headerMap.location);
  // What each server assigns as it creates: the id and the instant.
  if (json && typeof json === 'object' && !Array.isArray(json) && 'id' in json) {
    delete json.id;
    delete json.createdAt;
    delete json.updatedAt;
  }
  // A refusal's message is the server's own wording; its code and status are the contract.
  if (response.status >= 400) delete json.message;
  return { status: response.status, body: json, headers: headerMap };
}

/** The differences between the service's and the floor's answers; empty when they agree. */
export async function parity(service, floor, cases) {
  const differences = [];
  for (const [name, { before, ...request }] of Object.entries(cases)) {
    if (before) await answer(service, before);
    const a = await answer(service, request);
    const b = await answer(floor, request);
    if (a.status !== b.status) differences.push(`${name}: status ${a.status} / ${b.status}`);
    if (JSON.stringify(a.body) !== JSON.stringify(b.body)) {
      differences.push(`${name}: body ${JSON.stringify(a.body)} / ${JSON.stringify(b.body)}`);
    }
    for (const header of new Set([...Object.keys(a.headers), ...Object.keys(b.headers)])) {
      const same = COUNTING.has(header)
        ? (a.headers[header] === undefined) === (b.headers[header] === undefined)
        : a.headers[header] === b.headers[header];
      if (!same) {
        differences.push(`${name}: ${header}: ${a.headers[header]} / ${b.headers[header]}`);
      }
    }
  }
  return differences;
}
