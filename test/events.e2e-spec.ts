import { Client } from 'pg';
import { ApiKeys } from '@pet-adoption/api-keys';
import { eventReferenceOf, uuidOf } from '../src/common/events/event-id';
import { EventPruner } from '../src/platform/event-log/event-pruner';
import { CancelLapsedOrders } from '../src/orders/application/cancel-lapsed-orders.use-case';
import { freshDatabase, freshDatabaseOn } from './support/fresh-database';
import { apiClient, expectError } from './support/http';
import { resetDatabase, startTestApp, TestApp } from './support/test-app';
import { eventually } from './support/webhook-receiver';

/**
 * The event feed (docs/api.md, "Events"): every acknowledged change has its event, carrying the
 * object as the API answers it; nothing else does; a key reads exactly what it could read of the
 * objects themselves.
 */
/** An event as the feed answers it; `data` is a pet's or an order's members. */
interface FeedEvent {
  id: string;
  type: string;
  occurredAt: string;
  data: Record<string, unknown>;
}

jest.setTimeout(120_000);

describe('/v1/events: the feed of what happened', () => {
  let t: TestApp;
  type Client = ReturnType<typeof apiClient>;
  /** Default scopes: pets, and its own orders. */
  let customer: Client;
  let customerId: string;
  let neighbour: Client;
  /** Every order, and pets. */
  let shelter: Client;
  /** Pets only. */
  let browser: Client;

  beforeAll(async () => {
    t = await startTestApp({ PUBLIC_BASE_URL: 'https://pets.example/v1' });
    const issued = await t.issueKey();
    customerId = issued.id;
    customer = apiClient(t.url, issued.auth);
    neighbour = apiClient(t.url, (await t.issueKey()).auth);
    shelter = apiClient(
      t.url,
      (await t.issueKey({ scopes: ['pets:read', 'orders:manage'], organizationId: '1' })).auth,
    );
    browser = apiClient(t.url, (await t.issueKey({ scopes: ['pets:read'] })).auth);
  });
  beforeEach(() => resetDatabase(t.dataSource));
  afterAll(() => t.close());

  const addPet = async (body: object = { name: 'Rex', categoryId: 1 }) => {
    const response = await customer.post('/v1/pets').send(body);
    expect(response.status).toBe(201);
    return response.body as { id: number };
  };
  /**
   * Until every recorded event is settled and numbered (docs/adr/0048): no transaction older than
   * its own under way, and the settler has run.
   */
  const settled = () =>
    eventually(
      async () =>
        (
          await t.dataSource.query(`SELECT count(*)::int AS n FROM events WHERE public_id IS NULL`)
        )[0].n === 0,
      // A long writing transaction anywhere on the server holds the feed back (docs/adr/0030):
      // on a shared machine, another's bulk load.
      60_000,
      'the feed to settle',
    );
  const feed = async (client: Client, query = 'limit=100') => {
    await settled();
    const response = await client.get(`/v1/events?${query}`);
    expect(response.status).toBe(200);
    return response.body as FeedEvent[];
  };
  const types = async (client: Client) => (await feed(client)).map(({ type }) => type);
  const eventRows = async () =>
    Number((await t.dataSource.query('SELECT count(*) FROM events'))[0].count);

  describe('pet.created', () => {
    it('carries the pet exactly as createPet and getPet answer it', async () => {
      const created = await customer.post('/v1/pets').send({ name: 'Tom', categoryId: 7 });
      const [event] = await feed(browser);
      expect(event).toEqual({
        id: expect.stringMatching(/^evt_[0-7][0-9A-HJKMNP-TV-Z]{25}$/),
        type: 'pet.created',
        occurredAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        data: created.body,
      });
      expect(event.data).toEqual((await customer.get(`/v1/pets/${created.body.id}`)).body);
      expect(Math.abs(Date.parse(event.occurredAt) - Date.now())).toBeLessThan(60_000);
      expect(await browser.get(`/v1/events/${event.id}`).expect(200)).toMatchObject({
        body: event,
      });
    });

    it('is recorded once for an idempotent retry, and never for a refused creation', async () => {
      const send = () =>
        customer
          .post('/v1/pets')
          .set('idempotency-key', 'once')
          .send({ name: 'Rex', categoryId: 1 });
      await send().expect(201);
      await send().expect(201).expect('idempotent-replayed', 'true');
      await customer.post('/v1/pets').send({ name: '', categoryId: 1 }).expect(400);
      await browser.post('/v1/pets').send({ name: 'Rex', categoryId: 1 }).expect(403);
      expect(await types(browser)).toEqual(['pet.created']);
      expect(await eventRows()).toBe(1);
    });

    it('is never recorded for a change that rolls back, even at its commit', async () => {
      // A constraint checked at commit, after the pet and its event were written, refuses it.
      await t.dataSource.query(`
        CREATE FUNCTION refuse_doomed() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF NEW.name = 'Doomed' THEN RAISE EXCEPTION 'refused at commit'; END IF;
          RETURN NULL;
        END $$`);
      await t.dataSource.query(`
        CREATE CONSTRAINT TRIGGER refuse_doomed AFTER INSERT ON pets
          DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION refuse_doomed()`);
      try {
        const response = await customer.post('/v1/pets').send({ name: 'Doomed', categoryId: 1 });
        expect(response.status).toBe(500);
        await addPet();
      } finally {
        await t.dataSource.query('DROP TRIGGER refuse_doomed ON pets');
        await t.dataSource.query('DROP FUNCTION refuse_doomed()');
      }
      const events = await feed(browser);
      expect(events.map(({ data }) => data.name)).toEqual(['Rex']);
      expect(await eventRows()).toBe(1);
    });
  });

  describe('order events', () => {
    it('carry the order and its pet as the API answers them, readable by exactly who could read them', async () => {
      const pet = await addPet();
      const placed = await customer.post('/v1/store/orders').send({ petId: pet.id }).expect(201);
      await shelter
        .patch(`/v1/store/orders/${placed.body.id}`)
        .send({ status: 'approved' })
        .expect(200);
      await shelter
        .patch(`/v1/store/orders/${placed.body.id}`)
        .send({ status: 'delivered' })
        .expect(200);
      const order = (await customer.get(`/v1/store/orders/${placed.body.id}`)).body;
      const petNow = (await customer.get(`/v1/pets/${pet.id}`)).body;

      const mine = await feed(customer);
      expect(mine.map(({ type }) => type)).toEqual([
        'pet.created',
        'order.placed',
        'pet.updated',
        'order.approved',
        'order.delivered',
        'pet.updated',
      ]);
      expect(mine[1].data).toEqual(placed.body);
      // The pet as each change left it: pending at version 2, sold at version 3.
      expect(mine[2].data).toEqual({
        ...petNow,
        status: 'pending',
        version: 2,
        updatedAt: expect.any(String),
      });
      expect(petNow.version).toBe(3);
      expect(mine[4].data).toEqual(order);
      expect(mine[5].data).toEqual(petNow);
      expect(mine.map(({ id }) => id)).toEqual([...mine.map(({ id }) => id)].sort());

      expect(await feed(shelter)).toEqual(mine);
      const petsOnly = mine.filter(({ type }) => type.startsWith('pet.'));
      expect(await feed(neighbour)).toEqual(petsOnly);
      expect(await feed(browser)).toEqual(petsOnly);
      await neighbour.get(`/v1/events/${mine[1].id}`).expect(404);
      await browser.get(`/v1/events/${mine[1].id}`).expect(404);
      await shelter.get(`/v1/events/${mine[1].id}`).expect(200);
    });

    it('a key reading only its own orders sees only their events', async () => {
      const ordersOnly = await t.issueKey({ scopes: ['orders:read', 'orders:write'] });
      const client = apiClient(t.url, ordersOnly.auth);
      const [a, b] = [await addPet(), await addPet()];
      await client.post('/v1/store/orders').send({ petId: a.id }).expect(201);
      await customer.post('/v1/store/orders').send({ petId: b.id }).expect(201);
      const events = await feed(client);
      expect(events.map(({ type, data }) => [type, data.petId])).toEqual([['order.placed', a.id]]);
    });

    it('records nothing for a refused placement or move', async () => {
      const pet = await addPet({ name: 'Rex', categoryId: 1, status: 'sold' });
      expectError(
        await customer.post('/v1/store/orders').send({ petId: pet.id }),
        409,
        'pet_not_available',
      );
      await customer.post('/v1/store/orders').send({ petId: 999 }).expect(404);
      const other = await addPet();
      const placed = await customer.post('/v1/store/orders').send({ petId: other.id });
      expectError(
        await shelter.patch(`/v1/store/orders/${placed.body.id}`).send({ status: 'delivered' }),
        409,
        'invalid_transition',
      );
      await neighbour
        .patch(`/v1/store/orders/${placed.body.id}`)
        .send({ status: 'cancelled' })
        .expect(404);
      expect(await types(shelter)).toEqual([
        'pet.created',
        'pet.created',
        'order.placed',
        'pet.updated',
      ]);
    });

    it('an idempotent retry of a placement records nothing new', async () => {
      const pet = await addPet();
      const send = () =>
        customer.post('/v1/store/orders').set('idempotency-key', 'k1').send({ petId: pet.id });
      await send().expect(201);
      await send().expect(201).expect('idempotent-replayed', 'true');
      expect(await types(customer)).toEqual(['pet.created', 'order.placed', 'pet.updated']);
    });

    it('expiry and key revocation are order.cancelled events like any other', async () => {
      const doomedKey = await t.issueKey();
      const doomed = apiClient(t.url, doomedKey.auth);
      const [a, b] = [await addPet(), await addPet()];
      const expiring = (await customer.post('/v1/store/orders').send({ petId: a.id })).body;
      const revoked = (await doomed.post('/v1/store/orders').send({ petId: b.id })).body;
      await t.dataSource.query(
        `UPDATE orders SET expires_at = now() - interval '1 second' WHERE id = $1`,
        [expiring.id],
      );
      await t.app.get(ApiKeys).revoke(doomedKey.id);
      await t.app.get(CancelLapsedOrders).execute();
      const cancelled = (await feed(shelter)).filter(({ type }) => type === 'order.cancelled');
      expect(cancelled.map(({ data }) => [data.id, data.cancelReason])).toEqual([
        [expiring.id, 'expired'],
        [revoked.id, 'key_revoked'],
      ]);
      const freed = (await feed(browser))
        .slice(-2)
        .map(({ type, data }) => [type, data.id, data.status]);
      expect(freed).toEqual([
        ['pet.updated', a.id, 'available'],
        ['pet.updated', b.id, 'available'],
      ]);
      expect((await feed(customer)).filter(({ type }) => type === 'order.cancelled')).toHaveLength(
        1,
      );
      expect(customerId).toBeDefined();
    });
  });

  describe('listing', () => {
    it('pages in ascending id with a Link to the next page, and filters by type', async () => {
      for (let i = 0; i < 5; i++) await addPet();
      const all = (await feed(browser)).map(({ id }) => id);
      expect(all).toHaveLength(5);
      expect([...all].sort()).toEqual(all);
      const first = await browser.get('/v1/events?limit=2&type=pet.created').expect(200);
      expect(first.body.map(({ id }: { id: string }) => id)).toEqual(all.slice(0, 2));
      expect(first.headers.link).toBe(
        `<https://pets.example/v1/events?limit=2&type=pet.created&after=${all[1]}>; rel="next"`,
      );
      const last = await browser.get(`/v1/events?after=${all[3]}`).expect(200);
      expect(last.body.map(({ id }: { id: string }) => id)).toEqual([all[4]]);
      expect(last.headers.link).toBeUndefined();
      expect((await browser.get('/v1/events?type=order.placed').expect(200)).body).toEqual([]);
      for (const beyond of [
        'evt_7ZZZZZZZZZZZZZZZZZZZZZZZZZ',
        'evt_9999999999999999_9999999999999999',
      ]) {
        expect((await browser.get(`/v1/events?after=${beyond}`).expect(200)).body).toEqual([]);
      }
      expect(first.headers['x-api-stability']).toBe('beta');
    });

    it.each([
      'limit=0',
      'limit=101',
      'limit=1.5',
      'after=5',
      'after=evt_1',
      'after=evt_0000000000000001_0000000000000001&after=evt_0000000000000001_0000000000000002',
      'after=evt_0000000000000001',
      'after=evt_8ZZZZZZZZZZZZZZZZZZZZZZZZZ',
      'after=evt_01kb3z8m6t4v9q2xhj7c5n0rdw',
      'after=evt_01KB3Z8M6T4V9Q2XHJ7C5N0RDU',
      'type=webhook.test',
      'type=pet',
      'kind=pet.created',
    ])('refuses %s with 400', async (query) => {
      expectError(await browser.get(`/v1/events?${query}`), 400, 'validation_failed');
    });

    it('refuses a malformed event id with 400 and an unknown one with 404', async () => {
      expectError(await browser.get('/v1/events/42'), 400, 'validation_failed');
      expectError(await browser.get('/v1/events/evt_01KB3Z8M6T4V9Q2XHJ7C5N0RDW'), 404, 'not_found');
      expectError(
        await browser.get('/v1/events/evt_0000000000000001_0000000000000042'),
        404,
        'not_found',
      );
    });

    it('needs a scope that reads something', async () => {
      const keyless = apiClient(t.url, (await t.issueKey({ scopes: ['pets:write'] })).auth);
      expectError(await keyless.get('/v1/events'), 403, 'forbidden');
    });

    it('never shows an event before one of an older transaction still under way', async () => {
      // Two sessions at once: the embedded engine serves one, so this runs on a real server (a
      // throw-away one when the run uses the embedded engine) with a pool of its own.
      const database = await freshDatabase();
      const app = await startTestApp({ DATABASE_URL: database.url, DATABASE_POOL_SIZE: '10' });
      const older = app.dataSource.createQueryRunner();
      try {
        const writer = apiClient(app.url, app.auth);
        const reader = apiClient(app.url, (await app.issueKey({ scopes: ['pets:read'] })).auth);
        await older.connect();
        await older.startTransaction();
        // An older transaction records an event and stays open, as a slow change would.
        await older.query(
          `INSERT INTO events (type, readers, read_scope, data)
           VALUES ('pet.created', 'everyone', 'pets:read', '{"id": 0}')`,
        );
        const created = await writer.post('/v1/pets').send({ name: 'Rex', categoryId: 1 });
        expect(created.status).toBe(201);
        const listed = await reader.get('/v1/events').expect(200);
        // The younger, committed event waits: shown now, it would be passed over by a reader's
        // cursor when the older one commits with a lower position.
        expect(listed.body).toEqual([]);
        await older.commitTransaction();
        let events: FeedEvent[] = [];
        await eventually(
          async () => {
            events = (await reader.get('/v1/events').expect(200)).body as FeedEvent[];
            return events.length === 2;
          },
          60_000,
          'both events in the feed',
        );
        expect(events.map(({ data }) => data.id)).toEqual([0, created.body.id]);
        // Numbered as they settled: the older transaction's event first.
        expect(events[1].id > events[0].id).toBe(true);
      } finally {
        if (older.isTransactionActive) await older.rollbackTransaction();
        await older.release();
        await app.close();
        await database.drop();
      }
    });

    it("shows an event while another database's transaction is still under way", async () => {
      // The server's snapshot counts every database's transactions: a long one elsewhere (a bulk
      // load of another database) held back every event here until it ended.
      const database = await freshDatabase();
      // On the same server (a throw-away one of its own when the run uses the embedded engine).
      const neighbour = await freshDatabaseOn(database.url);
      const app = await startTestApp({ DATABASE_URL: database.url });
      const elsewhere = new Client({ connectionString: neighbour.url });
      try {
        await elsewhere.connect();
        await elsewhere.query('BEGIN');
        await elsewhere.query('SELECT pg_current_xact_id()');
        const reader = apiClient(app.url, (await app.issueKey({ scopes: ['pets:read'] })).auth);
        const created = await apiClient(app.url, app.auth)
          .post('/v1/pets')
          .send({ name: 'Rex', categoryId: 1 });
        expect(created.status).toBe(201);
        await eventually(
          async () => (await reader.get('/v1/events').expect(200)).body.length === 1,
          5_000,
          "the event, the other database's transaction still open",
        );
      } finally {
        await elsewhere.end();
        await app.close();
        await neighbour.drop();
        await database.drop();
      }
    });

    it('gives concurrent changes distinct ids, listed in ascending order', async () => {
      await Promise.all(Array.from({ length: 30 }, () => addPet()));
      const events = await feed(browser);
      const ids = events.map(({ id }) => id);
      expect(ids).toHaveLength(30);
      expect(new Set(ids).size).toBe(30);
      expect([...ids].sort()).toEqual(ids);
      expect(new Set(events.map(({ data }) => data.id)).size).toBe(30);
    });
  });

  describe('opaque ids (docs/adr/0048)', () => {
    /** The row behind an event id: its transaction, its sequence number and its number. */
    const rowOf = async (dataId: number) =>
      (
        await t.dataSource.query(
          `SELECT xid::text AS xid, id::text AS seq, public_id::text AS number FROM events
            WHERE (data->>'id')::int = $1`,
          [dataId],
        )
      )[0] as { xid: string; seq: string; number: string };

    it('spell the number the event got as it settled: no transaction id, no sequence number', async () => {
      const before = Date.now();
      const pets = [await addPet(), await addPet()];
      const events = await feed(browser);
      for (const [i, event] of events.entries()) {
        const row = await rowOf(pets[i].id);
        const number = (eventReferenceOf(event.id) as { number: bigint }).number;
        expect(uuidOf(number)).toBe(row.number);
        expect(event.id).not.toContain(row.xid);
        // Its first 48 bits are the millisecond it settled.
        const settledAt = Number(number >> 80n);
        expect(settledAt).toBeGreaterThanOrEqual(before - 1_000);
        expect(settledAt).toBeLessThanOrEqual(Date.now() + 1_000);
      }
    });

    it('keep a v1.2 id working: as a cursor, and to fetch its event', async () => {
      const pets = [await addPet(), await addPet(), await addPet()];
      const events = await feed(browser);
      const { xid, seq } = await rowOf(pets[0].id);
      const legacy = `evt_${xid.padStart(16, '0')}_${seq.padStart(16, '0')}`;
      const after = await browser.get(`/v1/events?after=${legacy}`).expect(200);
      expect(after.body).toEqual(events.slice(1));
      expect((await browser.get(`/v1/events/${legacy}`).expect(200)).body).toEqual(events[0]);
      // An id whose event retention deleted resumes after the newest event recorded before it.
      await t.dataSource.query('DELETE FROM events WHERE id = $1', [seq]);
      const gone = await browser.get(`/v1/events?after=${legacy}`).expect(200);
      expect(gone.body).toEqual(events.slice(1));
    });
  });

  describe('during a rolling deploy from v1.2', () => {
    it("reads the previous release's events as their types declare them", async () => {
      const order = { id: 7, petId: 1, status: 'placed' };
      // The statement v1.2's recorder sends: readers named by feature, no scopes, no organisation.
      await t.dataSource.query(
        `INSERT INTO events (type, readers, owner_key_id, data)
         SELECT e->>'type', e->>'readers', (e->>'owner')::bigint, e->'data'
           FROM json_array_elements($1::json) WITH ORDINALITY AS recorded(e, n) ORDER BY n`,
        [
          JSON.stringify([
            { type: 'pet.created', readers: 'pets', data: { id: 1, name: 'Rex' } },
            { type: 'order.placed', readers: 'orders', owner: customerId, data: order },
          ]),
        ],
      );
      expect(await types(browser)).toEqual(['pet.created']);
      expect(await types(customer)).toEqual(['pet.created', 'order.placed']);
      expect(await types(neighbour)).toEqual(['pet.created']);
      expect(await types(shelter)).toEqual(['pet.created', 'order.placed']);
    });
  });

  describe('retention', () => {
    it('deletes events older than EVENT_RETENTION_DAYS, in batches, and nothing younger', async () => {
      await t.dataSource.query(
        `INSERT INTO events (type, readers, read_scope, data, occurred_at)
         SELECT 'pet.created', 'everyone', 'pets:read', '{}', now() - interval '31 days'
           FROM generate_series(1, 2500)`,
      );
      await addPet();
      // The settler numbering these rows locks them, and the pruner skips locked rows (a short
      // batch ends its run, the next run takes the rest): it prunes once they are settled.
      await settled();
      expect(await t.app.get(EventPruner).prune()).toBe(2500);
      expect((await feed(browser)).map(({ type }) => type)).toEqual(['pet.created']);
      expect(await t.app.get(EventPruner).prune()).toBe(0);
    });
  });

  describe('pet.updated and pet.deleted', () => {
    it('carry the pet as updatePet answers it, and as it was when deleted', async () => {
      const pet = await addPet();
      // Organisation 1's staff correct and remove the pets keys without an organisation add.
      const staff = apiClient(t.url, t.auth);
      const updated = await staff.patch(`/v1/pets/${pet.id}`).send({ name: 'Max' }).expect(200);
      await staff.patch(`/v1/pets/${pet.id}`).send({}).expect(200);
      // Its own values change nothing: same version, no event.
      const same = await staff
        .patch(`/v1/pets/${pet.id}`)
        .send({ name: 'Max', categoryId: updated.body.categoryId })
        .expect(200);
      expect(same.body).toEqual(updated.body);
      await staff
        .patch(`/v1/pets/${pet.id}`)
        .set('if-match', '"1"')
        .send({ name: 'Old' })
        .expect(412);
      const before = (await staff.get(`/v1/pets/${pet.id}`).expect(200)).body;
      await staff.delete(`/v1/pets/${pet.id}`).expect(204);
      await staff.delete(`/v1/pets/${pet.id}`).expect(404);
      const events = await feed(browser);
      expect(events.map(({ type }) => type)).toEqual(['pet.created', 'pet.updated', 'pet.deleted']);
      expect(events[1].data).toEqual(updated.body);
      expect(events[1].data).toMatchObject({ name: 'Max', version: 2 });
      expect(events[2].data).toEqual({
        ...before,
        version: 3,
        updatedAt: expect.any(String),
      });
    });
  });
});
