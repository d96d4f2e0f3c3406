import { connect } from 'node:net';
import { Logger } from '@nestjs/common';
import { apiClient } from './support/http';
import { startTestApp, TestApp } from './support/test-app';

interface RawExchange {
  /** Seconds from the end of the headers to the connection's close. */
  closedAfter: number;
  statusLine: string;
  /** The answer's X-Request-Id header. */
  requestId: string | undefined;
  body: string;
}

/**
 * Sends `POST /v1/pets` over a plain socket, straight to the service's own port: the headers at
 * once, then the body's chunks one every `gapMs`, and reports what came back and when.
 */
function postSlowly(
  url: string,
  chunks: string[],
  declaredLength: number,
  gapMs: number,
  auth?: string,
): Promise<RawExchange> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    let received = '';
    let sent = 0;
    let headersSentAt = 0;
    let timer: NodeJS.Timeout | undefined;
    socket.on('data', (data) => (received += data.toString()));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      const [head, body = ''] = received.split('\r\n\r\n');
      resolve({
        closedAfter: (Date.now() - headersSentAt) / 1000,
        statusLine: head.split('\r\n')[0],
        requestId: /\r\nX-Request-Id: ([^\r]+)/i.exec(head)?.[1],
        body,
      });
    });
    socket.on('connect', () => {
      socket.write(
        'POST /v1/pets HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
          `Content-Length: ${declaredLength}\r\nConnection: close\r\n` +
          (auth ? `Authorization: ${auth}\r\n` : '') +
          '\r\n',
      );
      headersSentAt = Date.now();
      timer = setInterval(() => {
        if (sent < chunks.length && !socket.destroyed) socket.write(chunks[sent++]);
      }, gapMs);
    });
    setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer after 30 s: ${received}`));
    }, 30_000).unref();
  });
}

describe('slow and aborted uploads, on the service’s own port', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('answers 408 and closes a body still trickling in 10 s after its headers, 401 at once without a key, and reads a slow complete one', async () => {
    const trickle = Array.from({ length: 25 }, () => ' ');
    const body = JSON.stringify({ name: 'Patient', categoryId: 1 });
    const pieces = Array.from({ length: 6 }, (_, i) =>
      body.slice((i * body.length) / 6, ((i + 1) * body.length) / 6),
    );
    // All at once: the three take as long as the slowest.
    const [keyed, anonymous, complete] = await Promise.all([
      postSlowly(t.url, trickle, 100, 1000, t.auth.authorization),
      postSlowly(t.url, trickle, 100, 1000),
      postSlowly(t.url, pieces, Buffer.byteLength(body), 1000, t.auth.authorization),
    ]);

    // Without a key nothing of the body is waited for (CONTRACT.md, "Trust, round 4"): 401 at once.
    expect(anonymous.statusLine).toBe('HTTP/1.1 401 Unauthorized');
    expect(anonymous.closedAfter).toBeLessThan(2);
    for (const cut of [keyed]) {
      expect(cut.statusLine).toBe('HTTP/1.1 408 Request Timeout');
      expect(JSON.parse(cut.body)).toEqual({
        code: 'request_timeout',
        message: 'The request did not fully arrive within 10 s.',
        status: 408,
        requestId: cut.requestId,
        docUrl: expect.stringMatching(/^http:\/\/[^ ]+\/v1\/docs\/errors#request_timeout$/),
      });
      expect(cut.requestId).toMatch(/^[0-9a-f-]{36}$/);
      // A bound with a generous margin for a busy machine, not a speed requirement.
      expect(cut.closedAfter).toBeGreaterThanOrEqual(9.5);
      expect(cut.closedAfter).toBeLessThan(13.5);
    }
    expect(complete.statusLine).toBe('HTTP/1.1 201 Created');
    expect(JSON.parse(complete.body)).toMatchObject({ name: 'Patient', categoryId: 1 });

    // The service is none the worse for it.
    expect((await apiClient(t.url, t.auth).get('/v1/pets?limit=1')).status).toBe(200);
  }, 40_000);

  it('takes a client that aborts its upload for what it is: no outage, no 503, nothing logged', async () => {
    const warned = jest.spyOn(Logger.prototype, 'warn');
    const failed = jest.spyOn(Logger.prototype, 'error');
    try {
      const { port } = new URL(t.url);
      for (const auth of [t.auth.authorization, undefined]) {
        const socket = connect(Number(port), '127.0.0.1');
        await new Promise((resolve) => socket.on('connect', resolve));
        socket.write(
          'POST /v1/pets HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
            'Content-Length: 100\r\n' +
            (auth ? `Authorization: ${auth}\r\n` : '') +
            '\r\n{"name": "Half',
        );
        await new Promise((resolve) => setTimeout(resolve, 200));
        socket.destroy();
      }
      // Time for the service to notice both.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(warned).not.toHaveBeenCalled();
      expect(failed).not.toHaveBeenCalled();
      const next = await apiClient(t.url, t.auth)
        .post('/v1/pets')
        .send({ name: 'Whole', categoryId: 1 });
      expect(next.status).toBe(201);
    } finally {
      warned.mockRestore();
      failed.mockRestore();
    }
  });
});
