import createClient, { type Client, type MaybeOptionalInit } from 'openapi-fetch';
import type { components, paths } from './schema.js';

export type { components, operations, paths } from './schema.js';

/** The specification's schemas, by their names. */
export type Pet = components['schemas']['Pet'];
export type NewPet = components['schemas']['NewPet'];
export type Pets = components['schemas']['Pets'];
export type PetStatus = components['schemas']['PetStatus'];
export type ErrorBody = components['schemas']['Error'];
export type ErrorDetail = components['schemas']['ErrorDetail'];
export type Order = components['schemas']['Order'];
export type NewOrder = components['schemas']['NewOrder'];
export type OrderStatus = components['schemas']['OrderStatus'];
export type Inventory = components['schemas']['Inventory'];
export type PetUpdate = components['schemas']['PetUpdate'];
export type Category = components['schemas']['Category'];
export type CategoryUpdate = components['schemas']['CategoryUpdate'];

/** A client of the API: `GET`, `POST`, `PATCH`, `PUT`, `DELETE` on its typed paths. */
export type PetAdoptionClient = Client<paths>;

/** A wait for `Retry-After` the client is about to make, as `onRetry` is told of it. */
export interface RetryEvent {
  /** Which retry the wait is for: 1 for the first, up to `retries`. */
  attempt: number;
  /** How long the client waits before sending the request again, in milliseconds. */
  waitMs: number;
  /** The refusal (429 or 503) that asked for the wait; its body may be read in the hook. */
  response: Response;
  /** The request that will be sent again. */
  request: Request;
}

/** How a client retries what the service refused for now (429, 503) after `Retry-After`. */
export interface RetryOptions {
  /** Attempts after the first; 0 never retries. Default 3. */
  retries?: number;
  /** The longest `Retry-After` waited for, in seconds; a longer one is answered as it came. Default 60. */
  maxWaitSeconds?: number;
  /**
   * Told of each wait before it starts, so that a wait of up to a minute is never silent: log it,
   * show it, count it. The wait starts once the hook's promise (if any) settles; a hook that throws
   * ends the request with that error.
   */
  onRetry?: (retry: RetryEvent) => void | Promise<void>;
}

export interface PetAdoptionClientOptions {
  /** The API's base address, ending in /v1, such as `http://localhost:3000/v1`. */
  baseUrl: string;
  /** An API key, sent as `Authorization: Bearer <apiKey>`. */
  apiKey: string;
  /** Another fetch, for tests or older runtimes. */
  fetch?: typeof globalThis.fetch;
  /** Retries after `Retry-After` (the default: 3, waiting at most 60 s each), or `false`. */
  retry?: RetryOptions | false;
}

/**
 * A typed client of the Pet Adoption Service: every path, parameter, body and response is checked
 * against the OpenAPI document it was generated from. A 429, or a 503 the request may be sent
 * again after, is retried after its `Retry-After` (see `RetryOptions`).
 *
 * ```ts
 * const api = createPetAdoptionClient({ baseUrl, apiKey });
 * const { data, error } = await api.POST('/pets', { body: { name: 'Rex', categoryId: 1 } });
 * ```
 */
export function createPetAdoptionClient({
  baseUrl,
  apiKey,
  fetch = (input, init) => globalThis.fetch(input, init),
  retry = {},
}: PetAdoptionClientOptions): PetAdoptionClient {
  return createClient<paths>({
    baseUrl,
    headers: { Authorization: `Bearer ${apiKey}` },
    fetch: retry === false ? fetch : retryingFetch(fetch, retry),
  });
}

/** An answer of the service that is not the one asked for, with its Error body. */
export class PetAdoptionError extends Error {
  readonly status: number;
  readonly body: ErrorBody | undefined;

  constructor(response: Response, body: unknown) {
    const error = isErrorBody(body) ? body : undefined;
    super(error ? `${error.code}: ${error.message}` : `HTTP ${response.status}`);
    this.name = 'PetAdoptionError';
    this.status = response.status;
    this.body = error;
  }
}

const isErrorBody = (body: unknown): body is ErrorBody =>
  typeof body === 'object' && body !== null && 'code' in body && 'message' in body;

/**
 * The seconds a `Retry-After` asks to wait (delta-seconds or an HTTP date), or null when the
 * response has none.
 */
export function retryAfterSeconds(response: Response, now = Date.now()): number | null {
  const value = response.headers.get('retry-after')?.trim();
  if (value === undefined || value === '') return null;
  if (/^\d+$/.test(value)) return Number(value);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000));
}

/**
 * Whether a refusal may be sent again as it is: a 429 was refused before anything was done; a 503
 * may come from a database lost during the operation, so a POST goes again only with an
 * `Idempotency-Key` (the service then answers the first outcome, never a second pet or order).
 */
const mayRetry = (request: Request, response: Response) =>
  response.status === 429 ||
  (response.status === 503 &&
    (request.method !== 'POST' || request.headers.has('idempotency-key')));

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A fetch that answers a 429 or 503 carrying `Retry-After` by waiting that long and sending the
 * request again: at most `retries` times, and never waiting longer than `maxWaitSeconds` (a longer
 * wait, such as a spent day, is the caller's to decide: the refusal is answered as it came).
 */
export function retryingFetch(
  fetch: typeof globalThis.fetch = (input, init) => globalThis.fetch(input, init),
  { retries = 3, maxWaitSeconds = 60, onRetry }: RetryOptions = {},
): typeof globalThis.fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    for (let attempt = 0; ; attempt++) {
      const response = await fetch(request.clone());
      if (attempt >= retries || !mayRetry(request, response)) return response;
      const seconds = retryAfterSeconds(response);
      if (seconds === null || seconds > maxWaitSeconds) return response;
      const waitMs = seconds * 1000;
      await onRetry?.({ attempt: attempt + 1, waitMs, response, request: request.clone() });
      // The refusal's body is not needed any more: release the connection before waiting.
      if (!response.bodyUsed) await response.body?.cancel();
      await pause(waitMs);
    }
  };
}

/** The body of an operation's 200 answer. */
type Ok<Operation> = Operation extends {
  responses: { 200: { content: { 'application/json': infer Body } } };
}
  ? Body
  : never;

type PathsWith<Method extends string> = {
  [Path in keyof paths]: paths[Path] extends Record<Method, object> ? Path : never;
}[keyof paths];

/** The listings: paths whose GET answers an array, a page at a time. */
export type ListPath = {
  [Path in PathsWith<'get'>]: Ok<paths[Path]['get']> extends readonly unknown[] ? Path : never;
}[PathsWith<'get'>];

/** The resources that are read with GET and changed with PATCH. */
export type PatchablePath = PathsWith<'get'> & PathsWith<'patch'>;

type PatchBody<Path extends PatchablePath> = paths[Path]['patch'] extends {
  requestBody?: { content: { 'application/json': infer Body } };
}
  ? Body
  : never;

type PathParameters<Path extends PatchablePath> = paths[Path]['patch'] extends {
  parameters: { path: infer Parameters };
}
  ? Parameters
  : never;

/** The client's methods without their per-path typing, for the helpers' own calls. */
type UntypedCall = (
  path: string,
  init: Record<string, unknown>,
) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

/** The target of a `Link` header's `rel="next"`, or null when there is none. */
export function nextPageUrl(link: string | null): string | null {
  for (const [, target, parameters] of (link ?? '').matchAll(/<([^>]*)>([^,]*)/g)) {
    if (/;\s*rel="?([^";]*\s)?next(\s[^";]*)?"?/i.test(parameters)) return target;
  }
  return null;
}

/**
 * Every page of a listing, in order, following `Link: <…>; rel="next"` until the last: the
 * next page is asked for with the query of that link (its `after`, and the filters it carries).
 * A refusal throws a PetAdoptionError.
 *
 * ```ts
 * for await (const page of pages(api, '/pets', { params: { query: { status: 'available' } } })) {
 *   for (const pet of page) console.log(pet.name);
 * }
 * ```
 */
export async function* pages<Path extends ListPath>(
  api: PetAdoptionClient,
  path: Path,
  init?: MaybeOptionalInit<paths[Path], 'get'>,
): AsyncGenerator<Ok<paths[Path]['get']>, void, undefined> {
  const get = api.GET as unknown as UntypedCall;
  const params = (init?.params ?? {}) as Record<string, unknown>;
  let query = params.query as Record<string, unknown> | undefined;
  for (;;) {
    const { data, error, response } = await get(path, { ...init, params: { ...params, query } });
    if (error !== undefined || data === undefined) throw new PetAdoptionError(response, error);
    yield data as Ok<paths[Path]['get']>;
    const next = nextPageUrl(response.headers.get('link'));
    if (next === null) return;
    query = Object.fromEntries(new URL(next).searchParams);
  }
}

/**
 * Reads a resource to change it: its body and the ETag to send back in `If-Match`. A pet is read
 * with `GET /pets?id=` (the stable read by id; `GET /pets/{petId}` is deprecated and goes away),
 * whose `version` is its ETag, `"<version>"`; any other resource by its own GET and `ETag`.
 */
async function readForUpdate(
  get: UntypedCall,
  path: string,
  params: { path: Record<string, unknown> },
): Promise<{ data: unknown; etag: string }> {
  if (path === '/pets/{petId}') {
    const petId = String(params.path.petId);
    const read = await get('/pets', { params: { query: { id: petId } } });
    if (read.error !== undefined) throw new PetAdoptionError(read.response, read.error);
    const [pet] = read.data as { version: number }[];
    // No live pet with that id: the 404 `GET /pets/{petId}` and `PATCH` give.
    if (pet === undefined) {
      const docs = read.response.url.replace(/\/pets(\?.*)?$/, '/docs/errors#not_found');
      throw new PetAdoptionError(new Response(null, { status: 404 }), {
        code: 'not_found',
        message: `No pet with id ${petId}.`,
        status: 404,
        requestId: read.response.headers.get('x-request-id') ?? '',
        docUrl: docs,
      });
    }
    return { data: pet, etag: `"${pet.version}"` };
  }
  const read = await get(path, { params });
  if (read.error !== undefined) throw new PetAdoptionError(read.response, read.error);
  const etag = read.response.headers.get('etag');
  if (etag === null)
    throw new Error(`${path} answered without an ETag: it cannot be updated safely.`);
  return { data: read.data, etag };
}

/**
 * Changes a resource that carries an `ETag` (a pet) without losing anyone else's change: reads it
 * (a pet with `GET /pets?id=`, not the deprecated `GET /pets/{petId}`),
 * applies `change` (which may be async) to what it read, and sends the result with `If-Match`; when the resource
 * changed meanwhile (412), reads it again and applies `change` again, at most `attempts` times in
 * all. Answers the changed resource; another refusal, or the last 412, throws a PetAdoptionError.
 *
 * ```ts
 * const pet = await updateWithETag(api, '/pets/{petId}', { path: { petId: 7 } }, (current) => ({
 *   name: `${current.name} Jr.`,
 * }));
 * ```
 */
export async function updateWithETag<Path extends PatchablePath>(
  api: PetAdoptionClient,
  path: Path,
  params: { path: PathParameters<Path> },
  change: (current: Ok<paths[Path]['get']>) => PatchBody<Path> | Promise<PatchBody<Path>>,
  { attempts = 5 }: { attempts?: number } = {},
): Promise<Ok<paths[Path]['patch']>> {
  const get = api.GET as unknown as UntypedCall;
  const patch = api.PATCH as unknown as UntypedCall;
  for (let attempt = 1; ; attempt++) {
    const { data, etag } = await readForUpdate(
      get,
      path,
      params as { path: Record<string, unknown> },
    );
    const written = await patch(path, {
      params,
      body: await change(data as Ok<paths[Path]['get']>),
      headers: { 'If-Match': etag },
    });
    if (written.response.status === 412 && attempt < attempts) continue;
    if (written.error !== undefined) throw new PetAdoptionError(written.response, written.error);
    return written.data as Ok<paths[Path]['patch']>;
  }
}
