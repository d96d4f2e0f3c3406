import { Pool } from 'pg';
import { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { isDatabaseUnavailable } from '../src/platform/database/database-errors';
import { apiClient } from './support/http';
import { databaseProxy, TcpProxy } from './support/tcp-proxy';
import { resetDatabase, startTestApp, TestApp } from './support/test-app';

describe('a stream of creates across a database outage', () => {
  let proxy: TcpProxy;
  let t: TestApp;
  let direct: TestApp;

  beforeAll(async () => {
    const viaProxy = await databaseProxy();
    proxy = viaProxy.proxy;
    // One instance reaches the database through the proxy; a second one, directly, checks the data.
    t = await startTestApp({
      DATABASE_URL: viaProxy.url,
      // Short, so that the outage answers 503 soon; not shorter: a loaded machine takes longer to connect.
      DATABASE_CONNECT_TIMEOUT_MS: '1000',
    });
    direct = await startTestApp();
    await resetDatabase(direct.dataSource);
  });
  afterAll(async () => {
    await t.close();
    await direct.close();
    await proxy.stop();
  });

  it('answers only 201 or 503, loses no acknowledged create, and recovers without a restart', async () => {
    const api = apiClient(t.url, t.auth);
    const acknowledged = new Map<number, string>();
    const statuses: number[] = [];
    let phase = 'before' as 'before' | 'during' | 'after';
    const byPhase = { before: [] as number[], during: [] as number[], after: [] as number[] };

    const stream = (async () => {
      for (let i = 0; phase !== 'after' || byPhase.after.length < 20; i++) {
        const name = `stream ${i}`;
        const response = await api.post('/v1/pets').send({ name, categoryId: 1 });
        statuses.push(response.status);
        byPhase[phase].push(response.status);
        if (response.status === 201) acknowledged.set(response.body.id, name);
      }
    })();

    await new Promise((resolve) => setTimeout(resolve, 500));
    proxy.cut();
    phase = 'during';
    await new Promise((resolve) => setTimeout(resolve, 1500));
    proxy.restore();
    phase = 'after';
    await stream;

    expect(new Set(statuses)).toEqual(new Set([201, 503]));
    expect(byPhase.before.every((s) => s === 201)).toBe(true);
    expect(byPhase.during).toContain(503);
    // Recovered by itself: the last creates all succeed.
    expect(byPhase.after.slice(-10)).toEqual(Array(10).fill(201));

    const rows: { id: string; name: string }[] = await direct.dataSource.query(
      'SELECT id, name FROM pets',
    );
    const stored = new Map(rows.map((row) => [Number(row.id), row.name]));
    for (const [id, name] of acknowledged) expect(stored.get(id)).toBe(name);
    // Each stored pet has its one event, and no event is left of a create that rolled back.
    const events: { id: number }[] = await direct.dataSource.query(
      `SELECT (data->>'id')::int AS id FROM events WHERE type = 'pet.created' ORDER BY 1`,
    );
    expect(events.map(({ id }) => id)).toEqual([...stored.keys()].sort((a, b) => a - b));
  });

  // Between the pool handing a connection over and its user listening for the connection's
  // errors, nobody listened: a connection lost then (the server going away in the same read as
  // the last answer, say) ended the process with an unheard 'error' event. Seen in a PostgreSQL
  // fast-shutdown restart (test/webhook-faults.e2e-spec.ts).
  it('lives through a connection lost while it is handed over, before anyone listens to it', async () => {
    const pool = (t.dataSource.driver as PostgresDriver).master as Pool;
    const client = await pool.connect();
    const ended = new Promise((resolve) => client.once('end', resolve));
    proxy.cut();
    await ended;
    proxy.restore();
    const lost = await client.query('SELECT 1').catch((error: unknown) => error);
    expect(isDatabaseUnavailable(lost)).toBe(true);
    client.release();
    // The pool drops the lost connection and serves the next request from a new one.
    await apiClient(t.url, t.auth)
      .post('/v1/pets')
      .send({ name: 'after', categoryId: 1 })
      .expect(201);
  });
});
