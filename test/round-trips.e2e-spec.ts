import { ApiKeyAuthenticator } from '@pet-adoption/api-keys';
import Redis from 'ioredis';
import { Client } from 'pg';
import { OpeningStatement } from '../src/platform/database/opening-statement';
import { CancelLapsedOrders } from '../src/orders/application/cancel-lapsed-orders.use-case';
import { EventSettler } from '../src/platform/event-log/event-settler';
import { DeliveryFanOut } from '../src/webhooks/infrastructure/delivery-fan-out';
import { apiClient } from './support/http';
import { resetDatabase, startTestApp, TestApp } from './support/test-app';

/**
 * What one request costs in round trips, counted at the drivers (the real ones: the spies only
 * record the calls they pass on): the hot path the benchmark measures must stay one statement and
 * one rate-limit command, with no database look-up for a key the instance already knows.
 */
describe('round trips per request', () => {
  let t: TestApp;
  let api: ReturnType<typeof apiClient>;
  let statements: string[];
  /** Per statement: whether it went while one before it on its connection was unanswered. */
  let pipelined: boolean[];
  let redisCommands: string[];

  /**
   * The background jobs' statements, not the requests': the pruning of idempotency keys and of
   * events (each at a random moment of its ten minutes), the webhooks' poll, the photos' look for
   * images of deleted pets (every 250 ms), the imports' look for an unfinished one (every 200 ms).
   * (The keys' last use and the known keys' refresh are
   * stopped below.)
   */
  const background = (text: string) =>
    /^(DELETE FROM (idempotency_keys WHERE ctid|events WHERE id) IN |SELECT 1 FROM webhook_deliveries|SELECT id, key FROM photo_images_released|SELECT 1 FROM imports WHERE)/.test(
      text,
    );

  beforeAll(async () => {
    t = await startTestApp();
    // The events' numbering and fan-out run in transactions of their own, whenever there is an
    // event: background work, stopped here so that only the requests' statements are counted.
    await t.app.get(EventSettler).onApplicationShutdown();
    await t.app.get(DeliveryFanOut).onApplicationShutdown();
    api = apiClient(t.url, t.auth);
    await resetDatabase(t.dataSource);
    await api.post('/v1/pets').send({ name: 'Rex', categoryId: 1 }).expect(201);
    // The key's look-up stays trusted for the whole file, however slow the machine: the
    // authenticator's clock stands still from here, and its refresh of the known keys is stopped.
    // A refresh re-learns every key changed in its look-back (ours was issued moments ago), and a
    // key re-learned is looked up again on its next use: a statement no request asked for.
    const authenticator = t.app.get(ApiKeyAuthenticator);
    await authenticator.onModuleDestroy();
    const now = authenticator.now();
    authenticator.now = () => now;
    // One use at the frozen instant: a key learned before it, on a machine slow enough for the
    // look-up to have aged out by then, would otherwise be looked up again by the first test.
    await api.get('/v1/pets?limit=1').expect(200);
  });
  afterAll(() => t.close());

  beforeEach(() => {
    statements = [];
    pipelined = [];
    redisCommands = [];
    const query = Client.prototype.query;
    const unanswered = new Map<Client, number>();
    jest.spyOn(Client.prototype, 'query').mockImplementation(function (this: Client, ...args) {
      const config = args[0] as string | { text: string };
      const text = typeof config === 'string' ? config : config.text;
      // The background jobs' statements are neither counted nor waited on: they may land on any
      // connection at any time, however slow the machine.
      if (background(text))
        return (query as (...a: unknown[]) => unknown).apply(this, args) as never;
      // A transaction's first statement carries the statements that open it, in the same write,
      // and any issued with it (SqlStatements.together).
      const opening = config instanceof OpeningStatement ? config.opening : [];
      const following =
        config instanceof OpeningStatement
          ? config.following.map((statement) => statement.text)
          : [];
      statements.push(...opening, text, ...following);
      // A statement sent while another is unanswered on a connection in pipeline mode shares its
      // round trip. The pool's client always passes pg a callback (statement-deadlines); a
      // statement that opens a transaction carries its own.
      const waiting = unanswered.get(this) ?? 0;
      pipelined.push(
        ...[waiting, ...opening, ...following].map(
          (_, i) => this.pipeline && (i > 0 || waiting > 0),
        ),
      );
      type Callback = (...result: unknown[]) => void;
      const counted = (callback: Callback): Callback => {
        unanswered.set(this, waiting + 1);
        return (...result) => {
          unanswered.set(this, unanswered.get(this)! - 1);
          callback(...result);
        };
      };
      const at = args.findIndex((arg) => typeof arg === 'function');
      if (at >= 0) args[at] = counted(args[at] as Callback);
      else if (config instanceof OpeningStatement) {
        const own = config as unknown as { callback: Callback };
        own.callback = counted(own.callback);
      }
      return (query as (...a: unknown[]) => unknown).apply(this, args) as never;
    });
    // The lapsed-order sweeper runs on its own timer, in transactions of its own: held still here.
    jest.spyOn(CancelLapsedOrders.prototype, 'execute').mockResolvedValue([]);
    const sendCommand = Redis.prototype.sendCommand;
    jest.spyOn(Redis.prototype, 'sendCommand').mockImplementation(function (this: Redis, command) {
      redisCommands.push(command.name);
      return sendCommand.call(this, command);
    });
  });
  afterEach(() => jest.restoreAllMocks());

  /**
   * What a statement does: BEGIN, COMMIT, the key's lock, or the last table it writes (a pet's
   * statement also names its category, a placement updates its pet first) or locks.
   */
  const shape = (text: string) =>
    /^\s*(BEGIN|COMMIT|SET)/.exec(text)?.[1] ??
    (/pg_advisory_xact_lock/.test(text)
      ? 'lock'
      : ([...text.matchAll(/(?:INSERT INTO|UPDATE) (\w+)/g)].at(-1)?.[1] ??
        /FROM (\w+)[^]*FOR UPDATE/.exec(text)?.[1]));

  /** The requests' statements in round trips: each group went without waiting for an answer. */
  const roundTrips = () => {
    const trips: (string | undefined)[][] = [];
    statements.forEach((text, i) => {
      if (pipelined[i]) trips.at(-1)!.push(shape(text));
      else trips.push([shape(text)]);
    });
    return trips;
  };

  it.each([
    ['GET /v1/pets', () => api.get('/v1/pets?status=available&limit=20'), 200],
    ['GET /v1/pets?after', () => api.get('/v1/pets?limit=5&after=0'), 200],
    ['GET /v1/pets/{petId}', () => api.get('/v1/pets/1'), 200],
  ])('%s with a known key: one SQL statement, one Redis command', async (_, send, status) => {
    for (let i = 0; i < 10; i++) expect((await send()).status).toBe(status);
    expect(statements).toHaveLength(10);
    expect(statements.filter((text) => /api_keys/.test(text))).toEqual([]);
    expect(redisCommands).toEqual(Array(10).fill('evalsha'));
  });

  it('POST /v1/pets with a known key: the pet and its event in one transaction of two round trips, one Redis command', async () => {
    for (let i = 0; i < 10; i++) {
      expect((await api.post('/v1/pets').send({ name: 'Tom', categoryId: 2 })).status).toBe(201);
    }
    // BEGIN and its statement timeout with the pet, then its event (docs/adr/0030) with COMMIT.
    expect(roundTrips()).toEqual(
      Array(10)
        .fill([
          ['BEGIN', 'SET', 'pets'],
          ['events', 'COMMIT'],
        ])
        .flat(),
    );
    expect(redisCommands).toEqual(Array(10).fill('evalsha'));
  });

  it('POST /v1/pets with an Idempotency-Key: the recorded response goes with the event and COMMIT', async () => {
    for (let i = 0; i < 5; i++) {
      const created = await api
        .post('/v1/pets')
        .set('Idempotency-Key', `round-trips-${i}`)
        .send({ name: 'Tom', categoryId: 2 });
      expect(created.status).toBe(201);
    }
    expect(roundTrips()).toEqual(
      Array(5)
        .fill([
          ['BEGIN', 'SET', 'idempotency_keys'],
          ['pets'],
          ['events', 'idempotency_keys', 'COMMIT'],
        ])
        .flat(),
    );
  });

  it("POST /v1/store/orders: BEGIN, the key's lock and the pet's hold go with the placement, the events with COMMIT", async () => {
    const pets: number[] = [];
    for (let i = 0; i < 3; i++) {
      pets.push((await api.post('/v1/pets').send({ name: 'Kit', categoryId: 3 })).body.id);
    }
    // Only the orders' statements and commands are counted. The pet is held through the pets
    // feature's port (PetHolds, docs/adr/0068), the order sent behind it without waiting.
    statements.length = 0;
    pipelined.length = 0;
    redisCommands.length = 0;
    for (const petId of pets) {
      expect((await api.post('/v1/store/orders').send({ petId })).status).toBe(201);
    }
    expect(roundTrips()).toEqual(
      Array(3)
        .fill([
          ['BEGIN', 'SET', 'lock', 'pets', 'orders'],
          ['events', 'COMMIT'],
        ])
        .flat(),
    );
    expect(redisCommands).toEqual(Array(3).fill('evalsha'));
  });

  it("POST /v1/pets/{petId}/applications: the application goes with BEGIN, the key's lock and the pet's, the event with COMMIT", async () => {
    const pets: number[] = [];
    for (let i = 0; i < 3; i++) {
      pets.push((await api.post('/v1/pets').send({ name: 'Ivy', categoryId: 3 })).body.id);
    }
    const apply = (petId: number, n: number) =>
      api.post(`/v1/pets/${petId}/applications`).send({
        applicant: {
          name: 'Ana Lima',
          email: `ana${n}@example.com`,
          address: { city: 'Bath', country: 'GB' },
        },
        answers: { household: 'Two adults', housing: 'own' },
      });
    // The pets' first applications: each pet's organisation is read under its lock first.
    for (const [n, petId] of pets.entries()) expect((await apply(petId, n)).status).toBe(201);
    statements.length = 0;
    pipelined.length = 0;
    redisCommands.length = 0;
    // Their organisations known, the next go with the pets' locks, in one round trip.
    for (const [n, petId] of pets.entries()) expect((await apply(petId, 10 + n)).status).toBe(201);
    expect(roundTrips()).toEqual(
      Array(3)
        .fill([
          ['BEGIN', 'SET', 'lock', 'pets', 'applications'],
          ['events', 'COMMIT'],
        ])
        .flat(),
    );
    expect(redisCommands).toEqual(Array(3).fill('evalsha'));
  });
});
