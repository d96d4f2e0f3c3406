import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { freshDatabase, FreshDatabase } from './support/fresh-database';
import { apiClient } from './support/http';
import { buildOnce, ServiceProcess, startService, stopService } from './support/service-process';
import { eventually, WebhookReceiver } from './support/webhook-receiver';

/**
 * Webhooks when an instance dies: the delivery it was attempting is made again by another
 * instance once its lease ends, with the same webhook-id, and nothing is lost (docs/adr/0031).
 * Real service processes on one fresh database, a real receiver on loopback.
 */
jest.setTimeout(120_000);

const LEASE_SECONDS = 4;

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

  /** A key with webhooks, issued from the command line on the fresh database. */
  const issueKey = () => {
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
        '--scopes',
        'pets:read,pets:write,webhooks:manage',
      ],
      { env: { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: 'error' }, encoding: 'utf8' },
    );
    return /"key": "([^"]+)"/.exec(output)![1];
  };

  it('an instance killed mid-attempt: another delivers it after the lease, same webhook-id', async () => {
    first = await startService(env());
    const key = issueKey();
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
