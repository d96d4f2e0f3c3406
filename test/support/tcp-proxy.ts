import { createServer, connect, Server, Socket } from 'node:net';
import { portToListenOn } from './peers/processes';

/**
 * A loopback TCP proxy between the service and a dependency, so that a test can cut the
 * connection and restore it without touching the real server.
 */
export class TcpProxy {
  private readonly sockets = new Set<Socket>();
  private server?: Server;
  private cutOff = false;
  private stalled = false;
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(port = 0): Promise<this> {
    this.server = createServer((client) => this.accept(client));
    const listenOn = port || (await portToListenOn());
    await new Promise<void>((resolve) => this.server!.listen(listenOn, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
    return this;
  }

  private accept(client: Socket): void {
    if (this.cutOff) {
      client.destroy();
      return;
    }
    const upstream = connect(this.targetPort, this.targetHost);
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
    if (this.stalled) {
      client.pause();
      upstream.pause();
    }
  }

  /** Holds every byte in both directions, as a hung server would, until `resume`. */
  stall(): void {
    this.stalled = true;
    for (const socket of this.sockets) socket.pause();
  }

  resume(): void {
    this.stalled = false;
    for (const socket of this.sockets) socket.resume();
  }

  /** Drops every open connection and refuses new ones, as a crashed server would. */
  cut(): void {
    this.cutOff = true;
    for (const socket of this.sockets) socket.destroy();
  }

  restore(): void {
    this.cutOff = false;
  }

  /** How many clients are connected through the proxy now. */
  connections(): Promise<number> {
    return new Promise((resolve, reject) =>
      this.server!.getConnections((error, count) => (error ? reject(error) : resolve(count))),
    );
  }

  async stop(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}

/** A proxy in front of the server `url` names, and `url` pointed at the proxy instead. */
async function proxyFor(
  url: string,
  defaultPort: number,
): Promise<{ proxy: TcpProxy; url: string }> {
  const through = new URL(url);
  const proxy = await new TcpProxy(through.hostname, Number(through.port || defaultPort)).start();
  through.host = `127.0.0.1:${proxy.port}`;
  return { proxy, url: through.toString() };
}

/**
 * A proxy in front of the run's database, and its DATABASE_URL: a test starts an app on it to cut
 * and restore the database under that app alone.
 */
export const databaseProxy = () => proxyFor(process.env.DATABASE_URL!, 5432);

/**
 * A proxy in front of the run's one Redis server (REDIS_URL, provided by the test setup), and its
 * REDIS_URL: an outage of one server, whatever shape the other specs run on (TEST_REDIS).
 */
export const redisProxy = () => proxyFor(process.env.REDIS_URL!, 6379);
