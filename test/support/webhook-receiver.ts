import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { portToListenOn } from './peers/processes';

/** A request the receiver got: its path, headers and the body as sent. */
export interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  at: number;
}

export type Responder = (request: Received, response: ServerResponse) => void;

/**
 * A real HTTP receiver on loopback, for webhook specs: it records every request and every TCP
 * connection, and answers as `respond` says (204 by default).
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  connections = 0;
  respond: Responder = (_, response) => response.writeHead(204).end();
  private server?: Server;
  port = 0;

  /** Listens on `port` (a free one when 0). */
  async start(port = 0): Promise<this> {
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const received = {
          path: request.url ?? '',
          headers: request.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          at: Date.now(),
        };
        this.received.push(received);
        this.respond(received, response);
      });
    });
    server.on('connection', () => (this.connections += 1));
    const listenOn = port || (await portToListenOn());
    await new Promise<void>((resolve) => server.listen(listenOn, '127.0.0.1', resolve));
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
    return this;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The requests to `path`, or every one. */
  to(path?: string): Received[] {
    return path === undefined ? this.received : this.received.filter((r) => r.path === path);
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** Polls `check` until it holds, or fails after `timeoutMs`. */
export async function eventually<T>(
  check: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 30_000,
  what = 'the condition',
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
