import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { Webhook } from 'standardwebhooks';
import type { Test } from 'supertest';
import { eventIdOf, numberOfUuid } from '../src/common/events/event-id';
import { freshDatabase, FreshDatabase } from './support/fresh-database';
import { apiClient, type Response } from './support/http';
import { describeWithPeer } from './support/peers/optional-peers';
import { PostgresServer } from './support/peers/postgres-server';
import { buildOnce, ServiceProcess, startService, stopService } from './support/service-process';
import { eventually, WebhookReceiver } from './support/webhook-receiver';

/**
 * Webhooks when an instance or the database dies: the delivery an instance was attempting is made
 * again by another once its lease ends, with the same webhook-id, and nothing is lost; a change
 * acknowledged while PostgreSQL restarts is delivered once it is back (docs/adr/0031). Real
 * service processes, a real receiver on loopback.
 */
jest.setTimeout(120_000);

const LEASE_SECONDS = 4;

/**
 * A key of organisation 1's staff with webhooks and high limits, issued from the command line on
 * the database at `url`: it corrects the pets it adds (pets:manage, docs/adr/0040).
 */
function issueKey(
  url: string,
  scopes = 'pets:read,pets:write,pets:manage,webhooks:manage',
): string {
  buildOnce();
  const output = execFileSync(
    process.execPath,
    [
      join(__dirname, '..', 'dist', 'src', 'access', 'cli', 'apikey.js'),
      'issue',
      '--name',
      'faults',
      '--plan',
      'enterprise',
      '--per-minute',
      '100000',
      '--per-day',
      '1000000',
      '--open-orders',
      '100000',
      '--scopes',
      scopes,
      '--organization',
      '1',
    ],
    {
      // A loaded machine may take more than the default second to open a connection.
      env: {
        ...process.env,
        DATABASE_URL: url,
        DATABASE_CONNECT_TIMEOUT_MS: '5000',
        LOG_LEVEL: 'error',
      },
      encoding: 'utf8',
    },
  );
  return /"key": "([^"]+)"/.exec(output)![1];
}

describe('webhooks across instances', () => {
  let database: FreshDatabase;
  let first: ServiceProcess | undefined;
  let second: ServiceProcess | undefined;
  let receiver: WebhookReceiver;

  const env = () => ({
    DATABASE_URL: database.url,
    WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
    WEBHOOK_LEASE_SECONDS: String(LEASE_SECONDS),
    WEBHOOK_TIMEOUT_MS: '1500',
    WEBHOOK_POLL_INTERVAL_MS: '50',
  });

  beforeAll(async () => {
    database = await freshDatabase();
    receiver = await new WebhookReceiver().start();
  });
  afterAll(async () => {
    await stopService(first);
    await stopService(second);
    await receiver.stop();
    await database.drop();
  });

  it('an instance killed mid-attempt: another delivers it after the lease, same webhook-id', async () => {
    first = await startService(env());
    const key = issueKey(database.url);
    const api = apiClient(first.url, { authorization: `Bearer ${key}` });
    // The first attempt is never answered: the instance dies while it waits.
    let hung = false;
    receiver.respond = (_, response) => {
      if (!hung) {
        hung = true;
        return;
      }
      response.writeHead(204).end();
    };
    const endpoint = await api
      .post('/v1/webhook-endpoints')
      .send({ url: `${receiver.url}/hook`, events: ['pet.created'] })
      .expect(201);
    await api.post('/v1/pets').send({ name: 'Rex', categoryId: 1 }).expect(201);
    await eventually(() => receiver.received.length === 1, 15_000, 'the first attempt');
    const killedAt = Date.now();
    first.child.kill('SIGKILL');
    await first.exited;

    second = await startService(env());
    await eventually(() => receiver.received.length === 2, 20_000, 'the attempt made again');
    const [lost, delivered] = receiver.received;
    expect(delivered.headers['webhook-id']).toBe(lost.headers['webhook-id']);
    expect(delivered.body).toBe(lost.body);
    // Not before the lease of the dead instance ended.
    expect(delivered.at - killedAt).toBeGreaterThanOrEqual(LEASE_SECONDS * 1000 - 1500);
    const attempts = await eventually(async () => {
      const list = (
        await apiClient(second!.url, { authorization: `Bearer ${key}` })
          .get(`/v1/webhook-endpoints/${endpoint.body.id}/deliveries`)
          .expect(200)
      ).body;
      return list.length === 1 && list;
    });
    // The dead instance recorded nothing; the one that delivered records its attempt, the second.
    expect(attempts[0]).toMatchObject({ attempt: 2, outcome: 'succeeded', responseStatus: 204 });
    await new Promise((resolve) => setTimeout(resolve, LEASE_SECONDS * 1000));
    expect(receiver.received).toHaveLength(2);
  });
});

type Shutdown = 'fast' | 'immediate';
type Phase = 'before' | 'during' | 'after';

/** What one request of the producing clients came to, and the changes it asked for. */
interface Answer {
  /** The HTTP status, or how the request failed without one (`timeout`: a hang). */
  status: number | string;
  phase: Phase;
  changes: string[];
}

/**
 * The change an event records, named as the producing clients name what they ask for: each pet is
 * created under a name of its own, renamed once to another (still available), then ordered once,
 * which places an order and reserves the pet (its status pending).
 */
function changeOf(type: string, data: Record<string, unknown>): string {
  if (type === 'pet.created') return `created ${String(data.name)}`;
  if (type === 'pet.updated' && data.status === 'available') return `renamed ${String(data.name)}`;
  if (type === 'pet.updated' && data.status === 'pending') return `reserved ${String(data.id)}`;
  if (type === 'order.placed') return `placed ${String(data.petId)}`;
  return `${type} ${JSON.stringify(data)}`;
}

/**
 * PostgreSQL restarted under a stream of changes, on a throw-away server of this file's own (the
 * run's server is shared with every other spec). Fast (every session ended, a checkpoint written)
 * and immediate (every process killed, crash recovery from the write-ahead log on start, as after
 * a crash of the server): the second proves more, as only what the log holds survives; the first
 * is how a server is restarted on purpose, with every session ended at once. The server commits
 * synchronously, as production does: with `synchronous_commit` off an acknowledged commit may
 * be lost by the server itself in an immediate shutdown.
 */
describeWithPeer('initdb and postgres', 'webhooks across a PostgreSQL restart', () => {
  /** Two clients per instance: several transactions are under way when the server goes. */
  const CLIENTS_PER_INSTANCE = 2;
  /**
   * A request unanswered for this long hangs: the service's database bounds (5 s to connect, 5 s
   * per statement) end any wait well before.
   */
  const HANG_MS = 20_000;

  let server: PostgresServer;
  const instances: ServiceProcess[] = [];
  let receiver: WebhookReceiver;
  let secret: string;
  /** Every answer of every test here: the events checked after each cover them all. */
  const answers: Answer[] = [];
  /** The producing clients, two on each instance, all with the one key. */
  let clients: ReturnType<typeof apiClient>[] = [];
  let phase: Phase = 'before';
  let round = 0;

  beforeAll(async () => {
    [server, receiver] = await Promise.all([
      PostgresServer.start({ durable: true }),
      new WebhookReceiver().start(),
    ]);
    const env = {
      DATABASE_URL: server.url,
      // While the server is away it refuses connections at once, so the outage is answered
      // promptly without a short bound; a generous one keeps a loaded machine's slow connection
      // before or after it from being taken for an outage.
      DATABASE_CONNECT_TIMEOUT_MS: '5000',
      // Redis is not what fails here: a slow reply on a loaded machine must not answer 503.
      REDIS_COMMAND_TIMEOUT_MS: '10000',
      WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
      WEBHOOK_LEASE_SECONDS: '3',
      WEBHOOK_TIMEOUT_MS: '1000',
      WEBHOOK_POLL_INTERVAL_MS: '50',
    };
    // One at a time: the first applies the migrations.
    instances.push(await startService(env));
    instances.push(await startService(env));
    const key = issueKey(
      server.url,
      'pets:read,pets:write,pets:manage,orders:read,orders:write,webhooks:manage',
    );
    const endpoint = await apiClient(instances[0].url, { authorization: `Bearer ${key}` })
      .post('/v1/webhook-endpoints')
      .send({ url: `${receiver.url}/hook`, events: ['*'] })
      .expect(201);
    secret = endpoint.body.secret;
    clients = instances.flatMap((instance) =>
      Array.from({ length: CLIENTS_PER_INSTANCE }, () =>
        apiClient(instance.url, { authorization: `Bearer ${key}` }),
      ),
    );
  });
  afterAll(async () => {
    await Promise.all(instances.map((instance) => stopService(instance)));
    await receiver?.stop();
    await server?.stop();
  });

  /**
   * Sends one request and notes its answer, in the phase it came in (a request under way when the
   * server stops is answered during the outage). A 503 is followed by a short pause, as a client
   * would make.
   */
  const send = async (request: Test, changes: string[]): Promise<Response | undefined> => {
    let response: Response | undefined;
    let status: Answer['status'];
    try {
      response = await request.timeout(HANG_MS);
      status = response.status;
    } catch (error) {
      status = (error as { timeout?: number }).timeout ? 'timeout' : String(error);
    }
    answers.push({ status, phase, changes });
    if (status === 503) await sleep(20);
    return response;
  };

  /** One client's stream of changes until `until` holds: create a pet, rename it, order it. */
  const produce = async (
    client: ReturnType<typeof apiClient>,
    tag: string,
    until: () => boolean,
  ) => {
    for (let i = 0; !until(); i++) {
      const name = `${tag}-${i}`;
      const created = await send(client.post('/v1/pets').send({ name, categoryId: 1 }), [
        `created ${name}`,
      ]);
      if (created?.status !== 201) continue;
      const id = String(created.body.id);
      const renamed = `${name} renamed`;
      await send(client.patch(`/v1/pets/${id}`).send({ name: renamed }), [`renamed ${renamed}`]);
      await send(client.post('/v1/store/orders').send({ petId: Number(id) }), [
        `placed ${id}`,
        `reserved ${id}`,
      ]);
    }
  };

  /**
   * Every event the database holds, with the id the API gives it and the change it records: once
   * each is settled and numbered (docs/adr/0048), which the service does within moments.
   */
  const committedEvents = async () => {
    const client = new Client({ connectionString: server.url });
    await client.connect();
    try {
      await eventually(
        async () =>
          (await client.query('SELECT 1 FROM events WHERE public_id IS NULL')).rowCount === 0,
        60_000,
        'every event to be numbered',
      );
      const { rows } = await client.query<{
        number: string;
        type: string;
        data: Record<string, unknown>;
      }>('SELECT public_id::text AS number, type, data FROM events');
      return rows.map(({ number, type, data }) => ({
        id: eventIdOf(numberOfUuid(number)),
        type,
        data,
        change: changeOf(type, data),
      }));
    } finally {
      await client.end();
    }
  };

  it.each<Shutdown>(['fast', 'immediate'])(
    "restarted (%s shutdown) while changes stream in: every acknowledged change's event is delivered once it is back",
    async (shutdown) => {
      round += 1;
      const mine = answers.length;
      phase = 'before';
      // The clients go on through the outage, until 40 requests were answered after it.
      const done = () =>
        phase === 'after' && answers.slice(mine).filter((a) => a.phase === 'after').length >= 40;
      const streams = clients.map((client, n) => produce(client, `r${round}c${n}`, done));
      await sleep(1000);
      phase = 'during';
      await server.restart(shutdown, 1000);
      phase = 'after';
      await Promise.all(streams);

      // The service answered every request: a success, or 503 while the database was away;
      // never another 5xx, never a hang.
      const ours = answers.slice(mine);
      const statuses = (p: Phase) => ours.filter((a) => a.phase === p).map((a) => a.status);
      expect(ours.filter((a) => ![200, 201, 503].includes(a.status as number))).toEqual([]);
      expect(statuses('before').filter((s) => s !== 200 && s !== 201)).toEqual([]);
      expect(statuses('during')).toContain(503);
      // Recovered by itself: the last answers are all successes.
      expect(
        statuses('after')
          .slice(-10)
          .filter((s) => s !== 200 && s !== 201),
      ).toEqual([]);

      // What was acknowledged (2xx) must have its event. A change answered 503 may have committed
      // all the same (the answer was lost with the connection, after the commit): its event is
      // then allowed, and owed to the receiver like any other; nothing else may have one.
      const acknowledged = answers.filter((a) => a.status === 200 || a.status === 201);
      const refused = answers.filter((a) => a.status === 503);
      const events = await committedEvents();
      const changes = events.map((e) => e.change);
      expect(changes.filter((c, i) => changes.indexOf(c) !== i)).toEqual([]);
      const recorded = new Set(changes);
      expect(acknowledged.flatMap((a) => a.changes).filter((c) => !recorded.has(c))).toEqual([]);
      const asked = new Set([...acknowledged, ...refused].flatMap((a) => a.changes));
      expect(changes.filter((c) => !asked.has(c))).toEqual([]);

      // Every committed event reaches the receiver once the database is back, and nothing else
      // does: no webhook-id of an event the database does not hold (one of a change that never
      // committed, or that the server lost). A webhook-id may come twice (an attempt whose end
      // could not be recorded during the outage is made again after its lease), with the same
      // event each time; each delivery is signed with the endpoint's secret.
      const committed = new Map(events.map((e) => [e.id, e]));
      const delivered = () => new Set(receiver.received.map((r) => r.headers['webhook-id']));
      await eventually(
        () => {
          const ids = delivered();
          return [...committed.keys()].every((id) => ids.has(id));
        },
        30_000,
        'every committed event at the receiver',
      );
      const verifier = new Webhook(secret);
      for (const delivery of receiver.received) {
        const id = delivery.headers['webhook-id'] as string;
        const event = verifier.verify(delivery.body, delivery.headers as Record<string, string>);
        expect({ id, event }).toEqual({
          id,
          event: {
            id,
            type: committed.get(id)?.type,
            occurredAt: expect.any(String),
            data: committed.get(id)?.data,
          },
        });
      }
      expect(delivered()).toEqual(new Set(committed.keys()));
    },
  );
});
