import { expectEarlyAnswer, hold } from './support/held-requests';
import { apiClient, expectError } from './support/http';
import { otherShelter } from './support/shelters';
import { resetDatabase, startTestApp, TestApp } from './support/test-app';
import { MAX_IMPORT_BYTES, MAX_IMPORT_ROWS } from '../src/imports/domain/import';

const ADMIN_TOKEN = 'imports-admin-token-0123456789abcdef';
type Client = ReturnType<typeof apiClient>;

/** POST /v1/imports and GET /v1/imports/{id} (CONTRACT.md "Shelter data in and out (v1.4)"). */
describe('imports', () => {
  let t: TestApp;
  let staff: Client;
  let other: Client;

  beforeAll(async () => {
    t = await startTestApp({ ADMIN_TOKEN });
    staff = apiClient(t.url, t.auth);
    other = (await otherShelter(t, ADMIN_TOKEN, { name: 'Vale Rescue', city: 'Hull' })).staff;
  });
  beforeEach(() => resetDatabase(t.dataSource));
  afterAll(() => t.close());

  const submit = (body: string, type = 'text/csv', query = '', client = staff) =>
    client.post(`/v1/imports${query}`).set('content-type', type).send(body);
  /** The import once finished: polled, as a client would. */
  const finished = async (id: number, client = staff) => {
    for (;;) {
      const read = await client.get(`/v1/imports/${id}`).expect(200);
      if (read.body.status === 'succeeded' || read.body.status === 'failed') return read.body;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const run = async (body: string, type = 'text/csv', query = '') => {
    const response = await submit(body, type, query);
    expect(response.status).toBe(202);
    return finished(response.body.id);
  };
  const pets = async () =>
    (await staff.get('/v1/pets').query({ organizationId: '1', limit: '100' }).expect(200)).body;
  const eventCount = async () =>
    Number((await t.dataSource.query(`SELECT count(*) AS n FROM events`))[0].n);

  // A BOM, CRLF, a quoted comma, doubled quotes, a line break in a description.
  const EDGES =
    '\ufeffexternalId,name,categoryId,description,colors,tags,goodWithDogs\r\n' +
    'A-1,"Rex, the brave",1,"Says ""woof""\r\nand sits",black|tan,calm|a\\|b,true\r\n' +
    'A-2,Bella,2,,,,\r\n';

  it('reads CSV as RFC 4180 says (BOM, CRLF, quoted commas, doubled quotes, line breaks), after a dry run that changes nothing', async () => {
    const dry = await submit(EDGES, 'text/csv', '?dryRun=true');
    expect(dry.status).toBe(202);
    expect(dry.headers['x-api-stability']).toBe('beta');
    expect(dry.body).toMatchObject({ status: 'queued', dryRun: true, format: 'csv' });
    expect(await finished(dry.body.id)).toMatchObject({
      status: 'succeeded',
      rows: { total: 2, created: 2, updated: 0, unchanged: 0, failed: 0 },
      errors: [],
      finishedAt: expect.any(String),
    });
    expect(await pets()).toEqual([]);
    expect(await eventCount()).toBe(0);

    const done = await run(EDGES);
    expect(done.rows).toEqual({ total: 2, created: 2, updated: 0, unchanged: 0, failed: 0 });
    const [rex, bella] = await pets();
    expect(rex).toMatchObject({
      externalId: 'A-1',
      name: 'Rex, the brave',
      categoryId: 1,
      status: 'available',
      description: 'Says "woof"\r\nand sits',
      colors: ['black', 'tan'],
      tags: ['calm', 'a|b'],
      environment: { children: null, dogs: true, cats: null },
    });
    expect(bella).toMatchObject({
      externalId: 'A-2',
      name: 'Bella',
      description: null,
      colors: [],
    });
    expect(await eventCount()).toBe(2);
  });

  it('upserts by externalId: an unchanged row changes nothing and records no event, a changed one its pet.updated', async () => {
    await run(EDGES);
    const before = await eventCount();
    expect((await run(EDGES)).rows).toMatchObject({ created: 0, updated: 0, unchanged: 2 });
    expect(await eventCount()).toBe(before);
    const changed = await run('externalId,name,categoryId\nA-2,Bella Rose,2\n');
    expect(changed.rows).toMatchObject({ total: 1, updated: 1 });
    const events = await t.dataSource.query(`SELECT type FROM events ORDER BY id DESC LIMIT 1`);
    expect(events[0].type).toBe('pet.updated');
    expect((await pets()).map((p: { name: string }) => p.name)).toEqual([
      'Rex, the brave',
      'Bella Rose',
    ]);
  });

  it('reports a failing row with its number and field, and imports the others', async () => {
    const csv =
      'externalId,name,categoryId,age\n' +
      ',NoId,1,\n' +
      'B-2,  ,1,\n' +
      'B-3,Max,one,\n' +
      'B-4,Luna,1,ancient\n' +
      'B-5,Milo,1,young\n' +
      'B-6,Odd,1,young,extra\n';
    const done = await run(csv);
    expect(done.status).toBe('succeeded');
    expect(done.rows).toEqual({ total: 6, created: 1, updated: 0, unchanged: 0, failed: 5 });
    expect(done.errors.map((e: { row: number; field: string }) => [e.row, e.field])).toEqual([
      [1, 'externalId'],
      [2, 'name'],
      [3, 'categoryId'],
      [4, 'age'],
      [6, null],
    ]);
    expect(done.errors[0]).toMatchObject({ issue: 'required' });
    expect((await pets()).map((p: { externalId: string }) => p.externalId)).toEqual(['B-5']);
  });

  it('fails as a whole, importing nothing, on unknown columns or an unreadable file', async () => {
    const unknown = await run('externalId,name,categoryId,colour\nC-1,Rex,1,red\n');
    expect(unknown).toMatchObject({ status: 'failed', rows: { total: null } });
    expect(unknown.errors[0]).toMatchObject({ row: null, field: 'body' });
    expect(unknown.errors[0].message).toContain('colour');
    const unreadable = await run('externalId,name,categoryId\nC-1,"Rex,1\n');
    expect(unreadable.status).toBe('failed');
    expect(await pets()).toEqual([]);
  });

  it('reads NDJSON: one Pet body a line, its line its row', async () => {
    const ndjson = [
      JSON.stringify({
        externalId: 'N-1',
        name: 'Rex',
        categoryId: 1,
        breed: { primary: 'Collie' },
      }),
      '',
      '{not json',
      JSON.stringify({ externalId: 'N-2', name: 'Max', categoryId: 1, colour: 'red' }),
      JSON.stringify({ name: 'Nameless', categoryId: 1 }),
    ].join('\n');
    const done = await run(ndjson, 'application/x-ndjson');
    expect(done.rows).toEqual({ total: 4, created: 1, updated: 0, unchanged: 0, failed: 3 });
    expect(done.errors.map((e: { row: number; field: string }) => [e.row, e.field])).toEqual([
      [3, null],
      [4, 'colour'],
      [5, 'externalId'],
    ]);
    expect((await pets())[0]).toMatchObject({ externalId: 'N-1', breed: { primary: 'Collie' } });
  });

  it('a dry run counts and reports exactly what the import then does', async () => {
    await run('externalId,name,categoryId,age\nA-1,Rex,1,\nA-2,Bella,2,\n');
    // Unchanged, changed, new, named twice (the second sees the first), and rows in error.
    const csv =
      'externalId,name,categoryId,age\n' +
      'A-1,Rex,1,\n' +
      'A-2,Bella Rose,2,\n' +
      'D-3,Max,1,young\n' +
      'D-3,Max,1,adult\n' +
      'D-4,Luna,1,ancient\n' +
      ',NoId,1,\n' +
      'D-5,  ,1,\n';
    const dry = await run(csv, 'text/csv', '?dryRun=true');
    const before = await eventCount();
    const real = await run(csv);
    expect(real.rows).toEqual({ total: 7, created: 1, updated: 2, unchanged: 1, failed: 3 });
    expect({ rows: dry.rows, errors: dry.errors }).toEqual({
      rows: real.rows,
      errors: real.errors,
    });
    expect(dry.dryRun).toBe(true);
    // The real run's events: D-3 created then changed, A-2 changed.
    expect((await eventCount()) - before).toBe(3);
  });

  it(`fails a file of more than ${MAX_IMPORT_ROWS.toLocaleString('en')} rows as a whole, importing none`, async () => {
    const csv = 'externalId,name,categoryId\n' + 'L,Rex,1\n'.repeat(MAX_IMPORT_ROWS + 1);
    const done = await run(csv);
    expect(done).toMatchObject({ status: 'failed', rows: { total: null, created: 0 } });
    expect(done.errors).toEqual([
      {
        row: null,
        field: 'body',
        issue: 'range',
        message: `The file has more than ${MAX_IMPORT_ROWS} rows.`,
      },
    ]);
    expect(await pets()).toEqual([]);
  });

  it('refuses a file declared over 50 MiB 413 before reading it', async () => {
    const held = hold(
      t.url,
      '/v1/imports',
      { 'content-type': 'text/csv', ...t.auth },
      MAX_IMPORT_BYTES + 1,
    );
    try {
      const answer = await expectEarlyAnswer(held, 413, 'payload_too_large');
      expect(JSON.parse(answer.body).message).toContain('50 MiB');
    } finally {
      held.socket.destroy();
    }
    expect(await t.dataSource.query(`SELECT id FROM imports`)).toEqual([]);
  });

  it('refuses another organisation, a key without pets:manage, other media types; a retry is the same import', async () => {
    const first = await submit(EDGES, 'text/csv', '').set('idempotency-key', 'imp-1');
    const again = await submit(EDGES, 'text/csv', '').set('idempotency-key', 'imp-1');
    expect(again.body.id).toBe(first.body.id);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expectError(
      await submit('x', 'text/csv', '').set('idempotency-key', 'imp-1'),
      422,
      'idempotency_key_reused',
    );
    expectError(await other.get(`/v1/imports/${first.body.id}`), 404, 'not_found');
    const reader = apiClient(t.url, (await t.issueKey({ scopes: ['pets:read'] })).auth);
    expectError(await submit(EDGES, 'text/csv', '', reader), 403, 'forbidden');
    expectError(
      await staff.post('/v1/imports').send({ name: 'Rex' }),
      415,
      'unsupported_media_type',
    );
    expectError(await submit(EDGES, 'text/csv', '?dryRun=maybe'), 400, 'validation_failed');
    expectError(await submit('', 'text/csv'), 400, 'validation_failed');
    expectError(
      await staff.post('/v1/pets').set('content-type', 'text/csv').send(EDGES),
      415,
      'unsupported_media_type',
    );
    await finished(first.body.id);
  });
});
