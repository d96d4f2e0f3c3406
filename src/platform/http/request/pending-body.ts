import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';

/**
 * A body left unread at or under this size is drained by Node after the answer and the connection
 * kept; a larger one, or one of unknown length (chunked), closes the connection after the answer,
 * so that refusing a request never costs reading what it declared.
 */
export const UNREAD_BODY_KEPT_BYTES = 16 * 1024;

/** How a body is to be read once the request is let through: as JSON text, or as image bytes. */
export type BodyKind = 'json' | 'image' | 'data';

/**
 * A request body not read yet: its stream, what it declares and how it is to be read. The body
 * parser hands this to Fastify instead of the bytes, so that nothing is read before the route,
 * the key, the scope and the rate limit have let the request through (docs/adr/0064); the
 * operation's body is then read by `BodyAfterGateInterceptor`, or never.
 */
export class PendingBody {
  private reading = false;
  private finished = false;

  constructor(
    private readonly stream: Readable,
    readonly kind: BodyKind,
    /** The declared Content-Length; undefined for a chunked body. */
    readonly declaredLength: number | undefined,
    readonly contentType: string | undefined,
  ) {}

  /**
   * Whether answering now must close the connection: bytes of the body are still to come and
   * there may be many of them (or reading stopped half-way, so that the next request could not
   * be told from the rest of this one).
   */
  get closesConnection(): boolean {
    if (this.finished) return false;
    if (this.reading) return true;
    return this.declaredLength === undefined || this.declaredLength > UNREAD_BODY_KEPT_BYTES;
  }

  /**
   * The body's bytes, or `undefined` as soon as more than `limit` arrive (reading stops there).
   * Rejects with the stream's error when the client goes away before its body has arrived (Node's
   * ECONNRESET `aborted`, which the error mapping recognises as the client's doing).
   */
  async read(limit: number): Promise<Buffer | undefined> {
    const chunks: Buffer[] = [];
    const size = await this.consume(limit, (chunk) => void chunks.push(chunk));
    return size === undefined ? undefined : Buffer.concat(chunks, size);
  }

  /**
   * Writes the body to a new file at `path` as it arrives, keeping only its first `headBytes` in
   * memory: its size and those bytes, or `undefined` as soon as more than `limit` arrive. The file
   * is removed when reading stops there or fails (as `read`, an aborted upload rejects).
   */
  async spool(limit: number, path: string, headBytes: number): Promise<SpooledBody | undefined> {
    const file = createWriteStream(path, { flags: 'wx' });
    const failed = new Promise<never>((_, reject) => file.once('error', reject));
    failed.catch(() => undefined);
    // Its open runs on libuv's threads and may end after a refusal: the file is removed only once
    // the stream has closed, or the open would make it again after the removal (seen in CI).
    const closed = new Promise<void>((resolve) => file.once('close', () => resolve()));
    const head: Buffer[] = [];
    let kept = 0;
    try {
      const size = await this.consume(limit, (chunk) => {
        if (kept < headBytes) {
          head.push(chunk.subarray(0, headBytes - kept));
          kept += head[head.length - 1].length;
        }
        // The socket waits while the disk catches up: no more than a chunk or two in memory.
        return file.write(chunk) ? undefined : Promise.race([once(file, 'drain'), failed]);
      });
      if (size === undefined) throw new Overflow();
      file.end();
      await Promise.race([finished(file), failed]);
      return { size, head: Buffer.concat(head, kept) };
    } catch (error) {
      file.destroy();
      await closed;
      await rm(path, { force: true });
      if (error instanceof Overflow) return undefined;
      throw error;
    }
  }

  /**
   * Hands each chunk to `sink` (pausing the stream while the promise it may return is pending) up
   * to the end, resolving to the body's size; or `undefined` as soon as more than `limit` arrive.
   */
  private consume(
    limit: number,
    sink: (chunk: Buffer) => Promise<unknown> | undefined,
  ): Promise<number | undefined> {
    this.reading = true;
    const stream = this.stream;
    return new Promise((resolve, reject) => {
      let size = 0;
      const settle = () => {
        stream.off('data', onData);
        stream.off('end', onEnd);
        stream.off('error', onError);
        stream.off('close', onClose);
      };
      const onData = (chunk: Buffer) => {
        size += chunk.length;
        if (size > limit) {
          settle();
          stream.pause();
          resolve(undefined);
          return;
        }
        const waiting = sink(chunk);
        if (!waiting) return;
        stream.pause();
        waiting.then(
          () => stream.resume(),
          (error: unknown) => {
            settle();
            reject(error);
          },
        );
      };
      const onEnd = () => {
        settle();
        this.finished = true;
        resolve(size);
      };
      const onError = (error: Error) => {
        settle();
        reject(error);
      };
      // A stream that closes without an end or an error is a client that went away.
      const onClose = () => {
        settle();
        reject(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
      };
      stream.on('data', onData);
      stream.on('end', onEnd);
      stream.on('error', onError);
      stream.on('close', onClose);
    });
  }
}

/** A body written to a file as it arrived: its size, and its first bytes as kept in memory. */
export interface SpooledBody {
  readonly size: number;
  readonly head: Buffer;
}

/** A body past its limit, while spooling: not an error of the request's, a refusal. */
class Overflow extends Error {}

const PENDING = new WeakMap<object, PendingBody>();

/** Remembers the request's body as pending (for `pendingBodyOf`), and returns it. */
export function keepPending(request: object, body: PendingBody): PendingBody {
  PENDING.set(request, body);
  return body;
}

/** The request's body as the parser left it, read or not; undefined for a request without one. */
export function pendingBodyOf(request: object): PendingBody | undefined {
  return PENDING.get(request);
}
