// The reference floor: the necessary work of each operation by hand, on node:http, pg and ioredis.
// Bearer key hashed and looked up with a cache, one atomic Redis script for both windows (the
// rate-limit library's store), one SQL statement, the same headers and body.
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import pg from 'pg';
import Redis from 'ioredis';

const require = createRequire(import.meta.url);
const { RedisWindowStore, rateLimitHeaders } = require('../dist/libs/rate-limit/src/index.js');

const { DATABASE_URL, REDIS_URL, PORT, REDIS_KEY_PREFIX } = process.env;
const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 10 });
const windows = new RedisWindowStore(new Redis(REDIS_URL), REDIS_KEY_PREFIX);
const keys = new Map();

async function client(authorization) {
  const token = /^Bearer +(\S+)$/i.exec(authorization ?? '')?.[1];
  if (!token) return null;
  const hash = createHash('sha256').update(token).digest('hex');
  let entry = keys.get(hash);
  if (!entry || entry.expires < Date.now()) {
    const { rows } = await pool.query({
      name: 'key',
      text: 'SELECT id, per_minute, per_day FROM api_keys WHERE hash = $1 AND revoked_at IS NULL',
      values: [hash],
    });
    entry = { row: rows[0] ?? null, expires: Date.now() + 2000 };
    keys.set(hash, entry);
  }
  return entry.row;
}

const toPet = (r) => ({
  id: Number(r.id),
  name: r.name,
  categoryId: Number(r.category_id),
  status: r.status,
});

function send(res, status, headers, body) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

async function handle(req, res) {
  const key = await client(req.headers.authorization);
  if (!key)
    return send(
      res,
      401,
      { 'www-authenticate': 'Bearer' },
      { code: 'unauthorized', message: 'no', status: 401 },
    );
  const now = Date.now();
  const hit = await windows.hit({
    subject: `key:${key.id}`,
    limits: { perMinute: key.per_minute, perDay: key.per_day },
    now,
    banThreshold: 30,
    banMs: 600000,
  });
  const headers = rateLimitHeaders(hit.windows, now);
  if (hit.outcome !== 'admitted')
    return send(res, 429, headers, { code: 'rate_limited', message: 'no', status: 429 });
  const url = new URL(req.url, 'http://floor');
  if (req.method === 'GET' && url.pathname === '/v1/pets') {
    const status = url.searchParams.get('status');
    const after = url.searchParams.get('after') ?? '0';
    const limit = Number(url.searchParams.get('limit') ?? 20);
    const { rows } = status
      ? await pool.query({
          name: 'list-status',
          text: 'SELECT id, name, category_id, status FROM pets WHERE status = $1 AND id > $2 ORDER BY id LIMIT $3',
          values: [status, after, limit + 1],
        })
      : await pool.query({
          name: 'list',
          text: 'SELECT id, name, category_id, status FROM pets WHERE id > $1 ORDER BY id LIMIT $2',
          values: [after, limit + 1],
        });
    const page = rows.slice(0, limit).map(toPet);
    if (rows.length > limit)
      headers.link = `<http://floor/v1/pets?limit=${limit}&after=${page[page.length - 1].id}>; rel="next"`;
    return send(res, 200, headers, page);
  }
  const match = /^\/v1\/pets\/(\d+)$/.exec(url.pathname);
  if (req.method === 'GET' && match) {
    const { rows } = await pool.query({
      name: 'get',
      text: 'SELECT id, name, category_id, status FROM pets WHERE id = $1',
      values: [match[1]],
    });
    return rows[0]
      ? send(res, 200, headers, toPet(rows[0]))
      : send(res, 404, headers, { code: 'not_found', message: 'no', status: 404 });
  }
  if (req.method === 'POST' && url.pathname === '/v1/pets') {
    let text = '';
    for await (const chunk of req) text += chunk;
    const body = JSON.parse(text);
    const { rows } = await pool.query({
      name: 'add',
      text: 'INSERT INTO pets (name, category_id, status) VALUES ($1, $2, $3) RETURNING id, name, category_id, status',
      values: [body.name, body.categoryId, body.status ?? 'available'],
    });
    const pet = toPet(rows[0]);
    return send(res, 201, { ...headers, location: `http://floor/v1/pets/${pet.id}` }, pet);
  }
  send(res, 404, headers, { code: 'not_found', message: 'no', status: 404 });
}

createServer((req, res) =>
  // A load generator aborts requests in flight when a run ends: that is not the server's fault.
  handle(req, res).catch(() => {
    if (!res.headersSent)
      send(res, 500, {}, { code: 'internal_error', message: 'no', status: 500 });
  }),
).listen(Number(PORT), '127.0.0.1', () => process.send?.('ready'));
