import { ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { freePort, waitForPort } from './support/peers/processes';
import { apiClient } from './support/http';
import { resetDatabase, startTestApp, TestApp } from './support/test-app';
import { eventually } from './support/webhook-receiver';

/**
 * docs/api.md's receiver, as a newcomer copies it: the code blocks of "A delivery" run as they
 * are written (on a free port instead of 4000), and receive, verified, what the walk-through
 * sends. If the docs drift from what the service sends, this fails.
 */
jest.setTimeout(60_000);

const docs = readFileSync(join(__dirname, '..', 'docs', 'api.md'), 'utf8');
const delivery = docs.slice(docs.indexOf('### A delivery'));
const [receiverCode, handleCode] = [...delivery.matchAll(/```js\n([\s\S]*?)```/g)].map(
  ([, code]) => code,
);

describe("docs/api.md's webhook receiver", () => {
  let t: TestApp;
  let receiver: ChildProcess | undefined;

  beforeAll(async () => {
    t = await startTestApp({
      WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
      WEBHOOK_POLL_INTERVAL_MS: '50',
    });
    await resetDatabase(t.dataSource);
  });
  afterAll(async () => {
    receiver?.kill();
    await t.close();
  });

  it('verifies the ping and the pet.created the walk-through sends it', async () => {
    const api = apiClient(
      t.url,
      (await t.issueKey({ scopes: ['pets:read', 'pets:write', 'webhooks:manage'] })).auth,
    );
    const port = await freePort();
    expect(receiverCode).toContain('.listen(4000,');
    const endpoint = await api
      .post('/v1/webhook-endpoints')
      .send({ url: `http://127.0.0.1:${port}/`, events: ['*'] })
      .expect(201);

    let printed = '';
    receiver = spawn(process.execPath, ['-e', receiverCode.replace('4000', String(port))], {
      cwd: join(__dirname, '..'),
      env: { ...process.env, WEBHOOK_SECRET: endpoint.body.secret },
    });
    receiver.stdout!.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    receiver.stderr!.on('data', (chunk: Buffer) => (printed += chunk.toString()));
    await waitForPort('127.0.0.1', port, "docs/api.md's receiver");

    await api.post(`/v1/webhook-endpoints/${endpoint.body.id}/ping`).expect(202);
    const pet = await api.post('/v1/pets').send({ name: 'Rex', categoryId: 1 }).expect(201);
    await eventually(
      () => /pet\.created/.test(printed),
      20_000,
      'the receiver to print pet.created',
    );
    expect(printed).toMatch(/^evt_\S+ webhook\.test /m);
    expect(printed).toMatch(new RegExp(`^evt_\\S+ pet\\.created \\{\\s+id: ${pet.body.id},`, 'm'));
    // The receiver prints before it answers, and the worker records the answer after it: the
    // attempts are read once both are recorded.
    const attempts = await eventually(
      async () => {
        const { body } = await api
          .get(`/v1/webhook-endpoints/${endpoint.body.id}/deliveries`)
          .expect(200);
        return body.length === 2 && body;
      },
      20_000,
      'both attempts to be recorded',
    );
    // The receiver answered 204 to both: it verified both signatures.
    expect(attempts.map((a: { responseStatus: number }) => a.responseStatus)).toEqual([204, 204]);
  });

  it('keeps the newest version of a pet and skips a repeat, as the worked example says', () => {
    const sandbox: Record<string, unknown> = { Set, Map };
    runInNewContext(
      `${handleCode}\nthis.handle = handle; this.pets = pets; this.processed = processed;`,
      sandbox,
    );
    const handle = sandbox.handle as (id: string, event: object) => void;
    const pets = sandbox.pets as Map<number, { name: string; version: number }>;
    const renamed = (version: number, name: string) => ({
      type: 'pet.updated',
      data: { id: 1, name, version },
    });
    handle('evt_3', renamed(3, 'Rex'));
    handle('evt_2', renamed(2, 'Rexy'));
    handle('evt_3', renamed(3, 'Rex'));
    expect(pets.get(1)).toEqual({ id: 1, name: 'Rex', version: 3 });
    expect([...(sandbox.processed as Set<string>)]).toEqual(['evt_3', 'evt_2']);
    handle('evt_4', { type: 'pet.deleted', data: { id: 1, name: 'Rex', version: 4 } });
    expect(pets.get(1)).toMatchObject({ version: 4 });
  });
});
