import { connect, Socket } from 'node:net';

/**
 * Requests that declare a body and never send it (test/body-gate.e2e-spec.ts): what a service
 * answers before it reads one, over a plain socket.
 */
export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Milliseconds from the end of the request's headers to the whole answer. */
  answeredMs: number;
}

export interface HeldRequest {
  socket: Socket;
  /** The answer, once it has fully arrived. */
  answer: Promise<Answer>;
  /** Milliseconds from the end of the headers to the server's closing the connection. */
  closed: Promise<number>;
}

/**
 * Sends a request's headers and only the first few bytes of the body it declares, over a plain
 * socket (no client library waits for or sends the rest), and keeps the connection open: the
 * client never asks for it to be closed, so a close is the server's.
 */
export function hold(
  url: string,
  path: string,
  headers: Record<string, string>,
  declaredLength: number,
  sent: Buffer = Buffer.alloc(1024, 0xff),
  method = 'POST',
): HeldRequest {
  const socket = connect(Number(new URL(url).port), '127.0.0.1');
  let received = Buffer.alloc(0);
  let headersSentAt = 0;
  let onAnswer: (answer: Answer) => void;
  const answer = new Promise<Answer>((resolve) => (onAnswer = resolve));
  const closed = new Promise<number>((resolve) =>
    socket.on('close', () => resolve(Date.now() - headersSentAt)),
  );
  socket.on('error', () => undefined);
  socket.on('data', (data) => {
    received = Buffer.concat([received, data]);
    const end = received.indexOf('\r\n\r\n');
    if (end === -1) return;
    const [statusLine, ...lines] = received.subarray(0, end).toString().split('\r\n');
    const answerHeaders = Object.fromEntries(
      lines.map((line) => {
        const colon = line.indexOf(':');
        return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
      }),
    );
    const length = Number(answerHeaders['content-length'] ?? 0);
    if (received.length < end + 4 + length) return;
    onAnswer({
      status: Number(statusLine.split(' ')[1]),
      headers: answerHeaders,
      body: received.subarray(end + 4, end + 4 + length).toString(),
      answeredMs: Date.now() - headersSentAt,
    });
  });
  socket.on('connect', () => {
    const head = Object.entries({ host: 'localhost', ...headers, 'content-length': declaredLength })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.write(`${method} ${path} HTTP/1.1\r\n${head}\r\n`);
    headersSentAt = Date.now();
    socket.write(sent);
  });
  return { socket, answer, closed };
}

/** Resolves with `promise`'s value, or rejects once `ms` have passed. */
export function within<T>(ms: number, promise: Promise<T>, what: string): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) =>
      setTimeout(() => reject(new Error(`${what}: nothing within ${ms} ms`)), ms).unref(),
    ),
  ]);
}

/** An early answer: the status expected, in under a second, and the connection closed after it. */
export async function expectEarlyAnswer(
  held: HeldRequest,
  status: number,
  code: string,
): Promise<Answer> {
  const answer = await within(5_000, held.answer, `a ${status}`);
  expect({
    status: answer.status,
    code: (JSON.parse(answer.body) as { code: string }).code,
  }).toEqual({ status, code });
  // Bounds with room for a busy machine: the body (10 MiB declared) never arrives, so any
  // answer at all proves it was not waited for; the second says it was not waited for long.
  expect(answer.answeredMs).toBeLessThan(1_000);
  expect(answer.headers.connection).toBe('close');
  expect(await within(2_000, held.closed, 'the close')).toBeLessThan(2_000);
  return answer;
}
