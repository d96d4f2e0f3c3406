import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ImageBodyBudget } from '../src/platform/http/request/image-body-budget';
import { ImageSpool } from '../src/platform/http/request/image-spool';
import { LINGER_MS } from '../src/platform/http/request/lingering-close';
import { expectEarlyAnswer, hold, within } from './support/held-requests';
import { apiClient } from './support/http';
import { ServiceProcess, startService, stopService } from './support/service-process';
import { startTestApp, TestApp } from './support/test-app';
import { plain } from './support/test-images';

const TEN_MIB = 10 * 1024 * 1024;
const ADMIN_TOKEN = 'body-gate-suite-admin-token-0123456789abcdef';

/** The process's resident set, in MB, as the kernel counts it. */
const rssMbOf = (service: ServiceProcess) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${service.child.pid}/status`, 'utf8'))![1]) /
  1024;

describe('the instance as a process of its own, met by keyless uploads', () => {
  let service: ServiceProcess;

  beforeAll(async () => {
    // The built service, as deployed: its RSS is its own (not the test runner's), and its event
    // loop is not shared with the 80 clients'. Limits out of the way: the point is what is read.
    service = await startService({
      ANONYMOUS_PER_MINUTE: '1000000',
      ANONYMOUS_PER_DAY: '100000000',
      BAN_THRESHOLD: '1000000',
      LOG_LEVEL: 'error',
    });
  }, 180_000);
  afterAll(() => stopService(service));

  it('answers 80 keyless connections each declaring 10 MiB with 401 within 1 s, without reading them, and RSS stays within 64 MB of idle', async () => {
    const targets = [
      ['/v1/pets', 'image/jpeg'],
      ['/v1/store/orders', 'image/png'],
      ['/v1/pets/1/photos', 'image/webp'],
      ['/v1/pets', 'application/json'],
    ];
    const send = (i: number) => {
      const [path, type] = targets[i % targets.length];
      // A made-up key for half of them: no better than none.
      const auth: Record<string, string> =
        i % 2 === 0 ? {} : { authorization: 'Bearer pet_test_madeupmadeupmadeupmadeup' };
      return hold(service.url, path, { 'content-type': type, ...auth }, TEN_MIB);
    };
    // Warm, one of each kind: the first request of a kind compiles code and fills caches, which
    // is neither a body nor the subject here.
    for (let i = 0; i < 8; i++) {
      const warm = send(i);
      await warm.answer;
      warm.socket.destroy();
    }
    const idle = rssMbOf(service);
    const held = Array.from({ length: 80 }, (_, i) => send(i));
    try {
      const answers = await Promise.all(
        held.map((one) => expectEarlyAnswer(one, 401, 'unauthorized')),
      );
      expect(answers).toHaveLength(80);
      expect(rssMbOf(service) - idle).toBeLessThan(64);
    } finally {
      held.forEach(({ socket }) => socket.destroy());
    }
  }, 60_000);

  it('lets a client that sends its whole large body read the refusal: the rest is read and dropped, not met with a reset', async () => {
    const body = Buffer.alloc(TEN_MIB - 16);
    const send = () =>
      fetch(`${service.url}/v1/pets/1/photos`, {
        method: 'POST',
        headers: { 'content-type': 'image/jpeg' },
        body,
      }).then(
        async (response) => ({
          status: response.status,
          code: ((await response.json()) as { code: string }).code,
        }),
        (error: { cause?: { code?: string } }) => ({ failed: error.cause?.code ?? String(error) }),
      );
    // One after another, then seven at once, from another process than the service's, as clients
    // are. Closed at once after the answer, fetch lost 12 of 20 answers to EPIPE: the client was
    // still writing when the reset came.
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await send());
    answers.push(...(await Promise.all(Array.from({ length: 7 }, send))));
    expect(answers).toEqual(
      Array.from({ length: 10 }, () => ({ status: 401, code: 'unauthorized' })),
    );
  }, 60_000);
});

describe('no body before the gate (CONTRACT.md, "Trust, round 4")', () => {
  let t: TestApp;

  beforeAll(async () => {
    // Limits out of the way: the point is what is read, not how often one may ask.
    t = await startTestApp({
      ANONYMOUS_PER_MINUTE: '1000000',
      ANONYMOUS_PER_DAY: '100000000',
      BAN_THRESHOLD: '1000000',
    });
  });
  afterAll(() => t.close());

  it('answers a key without the scope 403, an unknown route 404 and an image where JSON is taken 415, none reading the body', async () => {
    const reader = await t.issueKey({ organizationId: '1', scopes: ['pets:read'] });
    await expectEarlyAnswer(
      hold(t.url, '/v1/pets/1/photos', { 'content-type': 'image/jpeg', ...reader.auth }, TEN_MIB),
      403,
      'forbidden',
    );
    await expectEarlyAnswer(
      hold(t.url, '/v1/nope', { 'content-type': 'image/png', ...t.auth }, TEN_MIB),
      404,
      'not_found',
    );
    await expectEarlyAnswer(
      hold(t.url, '/v1/pets', { 'content-type': 'image/jpeg', ...t.auth }, TEN_MIB),
      415,
      'unsupported_media_type',
    );
    await expectEarlyAnswer(
      hold(t.url, '/v1/store/orders', { 'content-type': 'image/webp', ...t.auth }, TEN_MIB),
      415,
      'unsupported_media_type',
    );
  });

  it('answers a key past its rate limit 429 without reading the body, counting the request once', async () => {
    const limited = await t.issueKey({
      organizationId: '1',
      plan: 'enterprise',
      limits: { perMinute: 2, perDay: 100 },
    });
    const api = apiClient(t.url, limited.auth);
    const first = await api.get('/v1/pets?limit=1');
    expect(first.status).toBe(200);
    expect(first.headers['x-ratelimit-remaining']).toBe('1');
    // The second request of the minute, let through: its body is refused for its type, unread,
    // and it is counted once (not once by a gate and again by the guard).
    const second = await expectEarlyAnswer(
      hold(t.url, '/v1/pets', { 'content-type': 'image/jpeg', ...limited.auth }, TEN_MIB),
      415,
      'unsupported_media_type',
    );
    expect(second.headers['x-ratelimit-remaining']).toBe('0');
    const third = await expectEarlyAnswer(
      hold(t.url, '/v1/pets/1/photos', { 'content-type': 'image/jpeg', ...limited.auth }, TEN_MIB),
      429,
      'rate_limited',
    );
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('closes the connection after refusing a GET that declares a large body (no parser sees it)', async () => {
    await expectEarlyAnswer(
      hold(t.url, '/v1/pets', { 'content-type': 'application/json' }, TEN_MIB, undefined, 'GET'),
      401,
      'unauthorized',
    );
  });

  it('reads and drops what a refused client still sends for LINGER_MS at most, then closes', async () => {
    // A client that goes on sending a little at a time after its refusal, and never closes.
    const socket = connect({
      port: Number(new URL(t.url).port),
      host: '127.0.0.1',
      allowHalfOpen: true,
    });
    socket.on('error', () => undefined);
    let answeredAt = 0;
    socket.on('data', () => (answeredAt ||= Date.now()));
    const closedAt = new Promise<number>((resolve) =>
      socket.on('close', () => resolve(Date.now())),
    );
    socket.write(
      `POST /v1/pets/1/photos HTTP/1.1\r\nHost: localhost\r\nContent-Type: image/jpeg\r\nContent-Length: ${TEN_MIB}\r\n\r\n`,
    );
    const drip = setInterval(() => socket.writable && socket.write(Buffer.alloc(1024)), 100);
    try {
      const lingered = (await within(LINGER_MS + 10_000, closedAt, 'the close')) - answeredAt;
      expect(answeredAt).toBeGreaterThan(0);
      // Read, not reset, while it lasts; and it ends: generous bounds for a busy machine.
      expect(lingered).toBeGreaterThanOrEqual(LINGER_MS - 100);
      expect(lingered).toBeLessThan(LINGER_MS + 5_000);
    } finally {
      clearInterval(drip);
      socket.destroy();
    }
  });

  it('keeps the connection of a request without a body', async () => {
    const socket = connect(Number(new URL(t.url).port), '127.0.0.1');
    try {
      const head = await new Promise<string>((resolve) => {
        let received = '';
        socket.on('data', (data) => {
          received += data.toString();
          if (received.includes('\r\n\r\n')) resolve(received.split('\r\n\r\n')[0]);
        });
        socket.on('connect', () =>
          socket.write(
            `GET /v1/pets?limit=1 HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${t.auth.authorization}\r\n\r\n`,
          ),
        );
      });
      expect(head).toMatch(/^HTTP\/1\.1 200 /);
      expect(head.toLowerCase()).toContain('connection: keep-alive');
    } finally {
      socket.destroy();
    }
  });

  it('keeps a small refused body’s connection: Node drains it', async () => {
    const held = hold(
      t.url,
      '/v1/pets',
      { 'content-type': 'application/json' },
      10,
      Buffer.from('{"name":1}'),
    );
    try {
      const answer = await within(5_000, held.answer, 'a 401');
      expect(answer.status).toBe(401);
      expect(answer.headers.connection).not.toBe('close');
    } finally {
      held.socket.destroy();
    }
  });
});

describe('the memory of image bodies (PHOTO_BODY_MEMORY_MB)', () => {
  let t: TestApp;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'body-gate-e2e-'));
    // The smallest budget allowed: 22 MiB on the instance, 11 MiB for an organisation.
    t = await startTestApp({ ADMIN_TOKEN, PHOTO_DIR: dir, PHOTO_BODY_MEMORY_MB: '22' });
  });
  afterAll(async () => {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  const organisationKey = async () => {
    const admin = apiClient(t.url, { authorization: `Bearer ${ADMIN_TOKEN}` });
    const organisation = await admin
      .post('/admin/organizations')
      .send({
        name: `Gate Rescue ${randomUUID().slice(0, 8)}`,
        email: 'adopt@gate.example',
        address: { city: 'York', country: 'GB' },
      })
      .expect(201);
    return (
      await t.issueKey({
        organizationId: String(organisation.body.id),
        scopes: ['pets:read', 'pets:write', 'pets:manage'],
      })
    ).auth;
  };

  /** Waits until the instance holds `bytes` of image bodies. */
  const heldReaches = async (bytes: number) => {
    const budget = t.app.get(ImageBodyBudget);
    for (let waited = 0; budget.heldBytes !== bytes; waited += 10) {
      if (waited > 5_000) throw new Error(`held ${budget.heldBytes}, not ${bytes}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };

  /** Waits until the spool's files are as `wanted` says, and returns them. */
  const spoolHolds = async (wanted: (files: string[]) => Promise<boolean>) => {
    const spool = t.app.get(ImageSpool);
    for (let waited = 0; ; waited += 10) {
      const files = await spool.files();
      if (await wanted(files)) return files;
      if (waited > 5_000) throw new Error(`the spool holds ${files.length} file(s)`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };

  it('writes an image body to a file of the spool as it arrives (not to memory), removed once answered or once its client goes away', async () => {
    const sent = (await plain(400, 300).jpeg().toBuffer()).subarray(0, 8 * 1024);
    const held = hold(
      t.url,
      '/v1/pets/1/photos',
      { 'content-type': 'image/jpeg', ...t.auth },
      TEN_MIB,
      sent,
    );
    try {
      // What has come so far is on disk, though the body is far from over.
      const [file] = await spoolHolds(async (files) => {
        if (files.length !== 1) return false;
        return (await readFile(files[0]).catch(() => Buffer.alloc(0))).equals(sent);
      });
      expect(file).toBeDefined();
    } finally {
      held.socket.destroy();
    }
    await spoolHolds(async (files) => files.length === 0);

    const staff = apiClient(t.url, t.auth);
    const pet = await staff.post('/v1/pets').send({ name: 'Rex', categoryId: 1 }).expect(201);
    const image = await plain(64, 48).jpeg().toBuffer();
    const photo = (body: Buffer) =>
      staff.post(`/v1/pets/${pet.body.id}/photos`).set('content-type', 'image/jpeg').send(body);
    expect((await photo(image)).status).toBe(201);
    await spoolHolds(async (files) => files.length === 0);
    // Refused once read (it does not decode): its file goes too.
    expect((await photo(image.subarray(0, 200))).status).toBe(400);
    await spoolHolds(async (files) => files.length === 0);
  });

  it('refuses 503 with Retry-After, before reading, past an organisation’s half and past the instance’s whole; a normal upload works again once they are done', async () => {
    const [second, third] = [await organisationKey(), await organisationKey()];
    const upload = (auth: Record<string, string>, length: number) =>
      hold(t.url, '/v1/pets/1/photos', { 'content-type': 'image/jpeg', ...auth }, length);

    // Organisation 1 holds 10 MiB (its upload is let through and being read)...
    const first = upload(t.auth, TEN_MIB);
    await heldReaches(TEN_MIB);
    const held = [first];
    try {
      // ...so another 10 MiB of its own is past its 11 MiB.
      const overShare = await expectEarlyAnswer(
        upload(t.auth, TEN_MIB),
        503,
        'service_unavailable',
      );
      expect(Number(overShare.headers['retry-after'])).toBeGreaterThan(0);
      // Another organisation still has room: 20 of the instance's 22 MiB held.
      held.push(upload(second, TEN_MIB));
      await heldReaches(2 * TEN_MIB);
      // A third's 4 MiB, within its own share, is past the instance's.
      const overInstance = await expectEarlyAnswer(
        upload(third, 4 * 1024 * 1024),
        503,
        'service_unavailable',
      );
      expect(Number(overInstance.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      held.forEach(({ socket }) => socket.destroy());
    }
    // The bytes of uploads whose clients went away are given back.
    await heldReaches(0);

    const staff = apiClient(t.url, t.auth);
    const pet = await staff.post('/v1/pets').send({ name: 'Rex', categoryId: 1 }).expect(201);
    const image = await plain(64, 48).jpeg().toBuffer();
    const created = await staff
      .post(`/v1/pets/${pet.body.id}/photos`)
      .set('content-type', 'image/jpeg')
      .send(image);
    expect(created.status).toBe(201);
    await heldReaches(0);
  }, 30_000);
});
