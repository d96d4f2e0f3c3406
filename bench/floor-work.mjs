// The reference floor's work: the necessary work of each benchmarked operation, by hand, on pg and
// ioredis. The bearer key parsed, hashed and looked up with a short cache; one atomic Redis script
// for both windows (the rate-limit library's own store); the input validated as strictly as the
// service does; one prepared SQL statement (for a create, the pet and its pet.created event, which
// the contract commits with the change: the fewest round trips that can do that); the same headers
// and body. floor-server.mjs serves it on node:http; framework-floor-server.mjs behind Fastify or
// Nest, to measure what each framework costs by itself.
import { createHash, randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { parse as parseQuery } from 'node:querystring';
import pg from 'pg';
import Redis from 'ioredis';

const require = createRequire(import.meta.url);
const {
  RedisWindowStore,
  rateLimitHeaders,
  secondsUntil,
} = require('../dist/libs/rate-limit/src/index.js');
// A listing's ETag is the service's own function of its JSON and Link (ADR 0051).
const {
  representationTag,
} = require('../dist/src/platform/http/conditional-read/representation-tag.js');

const { DATABASE_URL, REDIS_URL, REDIS_KEY_PREFIX, PUBLIC_BASE_URL } = process.env;
const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 10 });
const windows = new RedisWindowStore(new Redis(REDIS_URL), REDIS_KEY_PREFIX);
const keys = new Map();

const KEY_PREFIX = 'pet_live_';
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i;
const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const STATUSES = new Set(['available', 'pending', 'sold']);
const INT64_MAX = 9223372036854775807n;
const ANONYMOUS = { perMinute: 60, perDay: 1000 };
const SUNSET = new Date(process.env.GET_PET_SUNSET ?? '2030-12-05T00:00:00Z');
const JSON_API_HEADERS = {
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
};
const DEPRECATION_HEADERS = {
  deprecation: '@1795219200',
  sunset: SUNSET.toUTCString(),
  link: `<${PUBLIC_BASE_URL}/pets>; rel="successor-version"`,
};
const instant = (column) =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const COLUMNS = `id, name, category_id, status, organization_id, external_id, profile, photos, version,
  ${instant('created_at')} AS created_at, ${instant('updated_at')} AS updated_at`;

class Refusal {
  constructor(status, code, message, headers = {}, details = undefined) {
    Object.assign(this, { status, code, message, headers, details });
  }
}

async function apiKey(authorization) {
  const token = BEARER.exec(authorization?.trim() ?? '')?.[1];
  if (!token?.startsWith(KEY_PREFIX)) return null;
  const hash = createHash('sha256').update(token).digest('hex');
  const now = Date.now();
  let entry = keys.get(hash);
  if (!entry || entry.expires <= now) {
    const { rows } = await pool.query({
      name: 'key',
      text: 'SELECT id, plan, per_minute, per_day, scopes, organization_id FROM api_keys WHERE hash = $1 AND revoked_at IS NULL',
      values: [hash],
    });
    entry = { row: rows[0] ?? null, expires: now + 2000 };
    keys.set(hash, entry);
  }
  return entry.row;
}

function int64(text, min) {
  if (typeof text !== 'string' || !/^(0|[1-9][0-9]{0,18})$/.test(text)) return null;
  const value = BigInt(text);
  return value >= min && value <= INT64_MAX ? text : null;
}

/** A 400 with the one detail the service gives for it: the field, the kind of issue, what to do. */
const invalid = (field, issue, message) =>
  new Refusal(400, 'validation_failed', message, {}, [{ field, issue, message }]);
const LIST_PARAMETERS = ['limit', 'after', 'status', 'categoryId', 'name'];
/**
 * Every parameter a listing takes, as the service's refusal lists them: the floor itself serves
 * only v1's, which are all the benchmark sends (a v1.3 filter is refused here as unknown).
 */
const LISTING_PARAMETERS = [
  ...['limit', 'after', 'near', 'radiusKm', 'id', 'status', 'categoryId', 'name'],
  ...['organizationId', 'externalId', 'breed', 'age', 'sex', 'size', 'goodWith', 'houseTrained'],
  ...['specialNeeds', 'hasPhotos', 'sort', 'seed'],
];
const PET_FIELDS = ['name', 'categoryId', 'status'];
/**
 * Every member a create takes, as the service's refusal lists them: the floor itself takes only the
 * v1 fields the benchmark sends (a profile member is refused here as unknown, which no run sends).
 */
const NEW_PET_MEMBERS = [
  ...PET_FIELDS,
  'externalId',
  ...['breed', 'age', 'birthDate', 'sex', 'size', 'coat', 'colors', 'description'],
  ...['attributes', 'environment', 'tags'],
];
const toPet = (r) => ({
  id: Number(r.id),
  name: r.name,
  categoryId: Number(r.category_id),
  status: r.status,
  organizationId: Number(r.organization_id),
  externalId: r.external_id,
  // The profile (v1.3) member by member in the answers' order, as the service's mapper gives it.
  breed: {
    primary: r.profile.breed.primary,
    secondary: r.profile.breed.secondary,
    mixed: r.profile.breed.mixed,
  },
  age: r.profile.age,
  birthDate: r.profile.birthDate,
  sex: r.profile.sex,
  size: r.profile.size,
  coat: r.profile.coat,
  colors: r.profile.colors,
  description: r.profile.description,
  attributes: {
    spayedNeutered: r.profile.attributes.spayedNeutered,
    houseTrained: r.profile.attributes.houseTrained,
    specialNeeds: r.profile.attributes.specialNeeds,
    shotsCurrent: r.profile.attributes.shotsCurrent,
  },
  environment: {
    children: r.profile.environment.children,
    dogs: r.profile.environment.dogs,
    cats: r.profile.environment.cats,
  },
  tags: r.profile.tags,
  photos: r.photos,
  version: r.version,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

async function listPets(search, headers) {
  const query = parseQuery(search);
  for (const name of Object.keys(query)) {
    if (!LIST_PARAMETERS.includes(name)) {
      throw invalid(
        name,
        'unknown_field',
        `${name} is not a query parameter of this operation. Its query parameters are ${LISTING_PARAMETERS.join(', ')}.`,
      );
    }
    if (typeof query[name] !== 'string') throw invalid(name, 'type', `${name} must be given once`);
  }
  const { limit, status, after } = query;
  const issueOf = (text) => (/^-?[0-9]+$/.test(text) ? 'range' : 'type');
  if (limit !== undefined && !/^(100|[1-9][0-9]?)$/.test(limit))
    throw invalid('limit', issueOf(limit), 'limit must be an integer from 1 to 100');
  if (status !== undefined && !STATUSES.has(status))
    throw invalid('status', 'enum', 'status must be one of available, pending, sold');
  if (after !== undefined && int64(after, 0n) === null)
    throw invalid(
      'after',
      issueOf(after),
      'after must be an integer from 0 to 9223372036854775807',
    );
  const size = Number(limit ?? 20);
  const { rows } = status
    ? await pool.query({
        name: 'page_by_status',
        text: `SELECT ${COLUMNS} FROM pets
               WHERE deleted_at IS NULL AND status = $1 AND id > $2 ORDER BY id LIMIT $3`,
        values: [status, after ?? '0', size + 1],
      })
    : await pool.query({
        name: 'page',
        text: `SELECT ${COLUMNS} FROM pets WHERE deleted_at IS NULL AND id > $1 ORDER BY id LIMIT $2`,
        values: [after ?? '0', size + 1],
      });
  const page = rows.slice(0, size).map(toPet);
  if (rows.length > size) {
    const next = new URLSearchParams();
    if (limit !== undefined) next.set('limit', limit);
    if (status !== undefined) next.set('status', status);
    next.set('after', String(page[page.length - 1].id));
    headers.link = `<${PUBLIC_BASE_URL}/pets?${next}>; rel="next"`;
  }
  // Serialised once more by the server: the service serialises once. The floor is the slower for it.
  headers.etag = `"${representationTag(JSON.stringify(page), headers.link)}"`;
  return [200, page];
}

async function getPet(petId, headers) {
  if (Date.now() >= SUNSET.getTime())
    throw new Refusal(410, 'gone', 'GET /v1/pets/{petId} was removed.');
  if (int64(petId, 1n) === null) {
    throw invalid('petId', 'type', `petId must be an integer from 1 to ${INT64_MAX}`);
  }
  const { rows } = await pool.query({
    name: 'find_by_id',
    text: `SELECT ${COLUMNS} FROM pets WHERE id = $1 AND deleted_at IS NULL`,
    values: [petId],
  });
  if (!rows[0]) throw new Refusal(404, 'not_found', `No pet with id ${petId}.`);
  headers.etag = `"${rows[0].version}"`;
  return [200, toPet(rows[0])];
}

async function readBody(req) {
  if (!/^application\/json\s*(;|$)/i.test(req.headers['content-type'] ?? ''))
    throw new Refusal(415, 'unsupported_media_type', 'The request body must be application/json.');
  const chunks = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size > 16 * 1024)
      throw new Refusal(413, 'payload_too_large', 'The request body is larger than 16 KiB.');
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new Refusal(400, 'malformed_json', 'The request body is not valid JSON.');
  }
}

async function createPet(req, headers, key) {
  const body = await readBody(req);
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new Refusal(400, 'validation_failed', 'The request body must be a JSON object.');
  for (const name of Object.keys(body)) {
    if (!PET_FIELDS.includes(name)) {
      throw invalid(
        name,
        'unknown_field',
        `${name} is not a field of this body. Its fields are ${NEW_PET_MEMBERS.join(', ')}.`,
      );
    }
  }
  const { name, categoryId, status = 'available' } = body;
  for (const required of ['name', 'categoryId']) {
    if (body[required] === undefined)
      throw invalid(required, 'required', `${required} is required.`);
  }
  if (typeof name !== 'string' || name.length < 1 || name.length > 100 || name.trim() === '')
    throw invalid('name', 'range', 'name must be 1 to 100 characters and not only white space');
  if (!Number.isSafeInteger(categoryId) || categoryId < 1)
    throw invalid('categoryId', 'type', 'categoryId must be an integer from 1 to 9007199254740991');
  if (!STATUSES.has(status))
    throw invalid('status', 'enum', 'status must be one of available, pending, sold');
  const { rows } = await pool.query({
    name: 'insert',
    // The pet's category is created with it, unnamed, when no category has that id yet; its
    // pet.created event (and, by the events table's trigger, its deliveries) in the same statement.
    text: `WITH category AS (INSERT INTO categories (id) VALUES ($2) ON CONFLICT DO NOTHING),
           pet AS (
             INSERT INTO pets (name, category_id, status, organization_id) VALUES ($1, $2, $3, $4)
             RETURNING ${COLUMNS}
           ),
           event AS (
             INSERT INTO events (type, readers, data, organization_id)
             SELECT 'pet.created', 'pets', jsonb_build_object('id', id, 'name', name,
                      'categoryId', category_id, 'status', status,
                      'organizationId', organization_id, 'externalId', external_id) || profile || jsonb_build_object(
                      'photos', photos, 'version', version, 'createdAt', created_at, 'updatedAt', updated_at),
                    organization_id
               FROM pet
           )
           SELECT * FROM pet`,
    values: [name, String(categoryId), status, key.organization_id],
  });
  const pet = toPet(rows[0]);
  headers.location = `${PUBLIC_BASE_URL}/pets/${pet.id}`;
  headers.etag = `"${pet.version}"`;
  return [201, pet];
}

async function handle(req, headers) {
  const [path, search = ''] = req.url.split('?');
  const petId = /^\/v1\/pets\/([^/]+)$/.exec(path)?.[1];
  if (petId !== undefined && req.method === 'GET') Object.assign(headers, DEPRECATION_HEADERS);

  // The order of checks of the service: rate limit (per key, or per address), key, scope, input.
  const key = await apiKey(req.headers.authorization);
  const hit = await windows.hit({
    subject: key ? `key:${key.id}` : `ip:${req.socket.remoteAddress}`,
    limits: key ? { perMinute: key.per_minute, perDay: key.per_day } : ANONYMOUS,
    now: Date.now(),
    banThreshold: 30,
    banMs: 600_000,
  });
  // The windows follow the Redis server's clock: the headers are relative to its instant.
  const { now } = hit;
  Object.assign(headers, rateLimitHeaders(hit.windows, now));
  if (hit.outcome === 'banned') {
    const seconds = Math.max(1, Math.ceil((hit.bannedUntil - now) / 1000));
    throw new Refusal(429, 'key_temporarily_banned', 'Banned.', { 'retry-after': String(seconds) });
  }
  if (hit.outcome === 'limited') {
    const window = hit.windows.find((w) => w.name === hit.exhausted);
    throw new Refusal(429, 'rate_limited', 'Rate limited.', {
      'retry-after': String(secondsUntil(window.resetAt, now)),
    });
  }
  if (!key) {
    throw new Refusal(401, 'unauthorized', 'The API key is not valid.', {
      'www-authenticate': req.headers.authorization ? 'Bearer error="invalid_token"' : 'Bearer',
    });
  }
  const scope = req.method === 'POST' ? 'pets:write' : 'pets:read';
  if (!key.scopes.includes(scope)) {
    throw new Refusal(403, 'forbidden', `The API key lacks the scope ${scope}.`, {
      'www-authenticate': `Bearer error="insufficient_scope", scope="${scope}"`,
    });
  }
  if (path === '/v1/pets' && req.method === 'GET') return listPets(search, headers);
  if (path === '/v1/pets' && req.method === 'POST') return createPet(req, headers, key);
  if (petId !== undefined && req.method === 'GET') return getPet(petId, headers);
  throw new Refusal(404, 'not_found', `No route for ${req.method} ${path}.`);
}

/**
 * Answers one request (node:http's IncomingMessage, as every framework keeps it): the status,
 * the headers and the body, refusals included.
 */
export async function answer(req) {
  const given = req.headers['x-request-id'];
  const headers = {
    'x-request-id':
      typeof given === 'string' && CLIENT_REQUEST_ID.test(given) ? given : randomUUID(),
    ...JSON_API_HEADERS,
  };
  try {
    const [status, body] = await handle(req, headers);
    return { status, headers, body };
  } catch (error) {
    const {
      status,
      code,
      message,
      headers: own,
      details,
    } = error instanceof Refusal ? error : new Refusal(500, 'internal_error', 'Unexpected.');
    // The Error body as the service writes it (v1.3): the request's id and the code's page.
    const body = {
      code,
      message,
      status,
      ...(details ? { details } : {}),
      requestId: headers['x-request-id'],
      docUrl: `${PUBLIC_BASE_URL}/docs/errors#${code}`,
    };
    return { status, headers: { ...headers, ...own }, body };
  }
}
