import fc from 'fast-check';
import { CancelLapsedOrders } from '../src/store/application/cancel-lapsed-orders.use-case';
import { apiClient, Response } from './support/http';
import { resetDatabase, startTestApp, TestApp } from './support/test-app';

/**
 * Model-based: random sequences of creates, orders, approvals, deliveries, cancellations, listings,
 * inventories and the passing of time, by keys with different scopes and caps on open orders, run
 * against the service and against a small model of the rules written here apart from the code.
 * After every step: the answer is the one the model expects (never a 5xx), every pet's status
 * follows its order, no pet has two open orders, no key holds more open orders than its cap, and
 * the inventory counts every pet. Replay a failure with PROPERTY_SEED=<seed>.
 */
jest.setTimeout(300_000);

const seed = Number(process.env.PROPERTY_SEED ?? 20261123);
const runs = Number(process.env.MODEL_RUNS ?? 100);

type PetStatus = 'available' | 'pending' | 'sold';
type OrderStatus = 'placed' | 'approved' | 'delivered' | 'cancelled';
type Target = Exclude<OrderStatus, 'placed'>;
type KeyName = 'alice' | 'bob' | 'shelter' | 'browser';

const SCOPES: Record<KeyName, string[]> = {
  alice: ['pets:read', 'pets:write', 'orders:read', 'orders:write'],
  bob: ['pets:read', 'pets:write', 'orders:read', 'orders:write'],
  shelter: ['pets:read', 'orders:read', 'orders:manage'],
  browser: ['pets:read'],
};
const KEYS = Object.keys(SCOPES) as KeyName[];
/** Each key's cap on open orders: small, so that sequences meet it. */
const CAPS: Record<KeyName, number> = { alice: 1, bob: 2, shelter: 500, browser: 500 };
/** How long a placed order holds its pet, in the service under test. */
const HOLD_SECONDS = 100;
const may = (key: KeyName, scope: string) => SCOPES[key].includes(scope);

const NEXT: Record<OrderStatus, Target[]> = {
  placed: ['approved', 'cancelled'],
  approved: ['delivered', 'cancelled'],
  delivered: [],
  cancelled: [],
};
const PET_FOLLOWS: Record<OrderStatus, PetStatus> = {
  placed: 'pending',
  approved: 'pending',
  delivered: 'sold',
  cancelled: 'available',
};

interface Model {
  pets: Map<number, PetStatus>;
  orders: Map<
    number,
    {
      petId: number;
      owner: KeyName;
      status: OrderStatus;
      /** Seconds of its hold left while placed. */
      holdLeft: number;
      cancelReason: 'requested' | 'expired' | null;
    }
  >;
  nextPetId: number;
  nextOrderId: number;
}

interface Real {
  t: TestApp;
  as: Record<KeyName, ReturnType<typeof apiClient>>;
  /** Each key's cap on open orders, by its id. */
  caps: Map<string, number>;
}

/** The answer's status, after checking it is never a 5xx and errors carry the Error body. */
function statusOf(response: Response): number {
  expect(response.status).toBeLessThan(500);
  if (response.status >= 400) {
    expect(response.body).toEqual({
      code: expect.any(String),
      message: expect.any(String),
      status: response.status,
    });
  }
  return response.status;
}

/** Pick an existing pet or order most of the time, and now and then one that does not exist. */
const pick = (ids: number[], choice: number) =>
  ids.length === 0 || choice % 8 === 7 ? 10_000 + choice : ids[choice % ids.length];

class CreatePet implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly key: KeyName,
    readonly status: PetStatus,
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const response = await real.as[this.key]
      .post('/v1/pets')
      .send({ name: 'Rex', categoryId: 1, status: this.status });
    if (!may(this.key, 'pets:write')) return void expect(statusOf(response)).toBe(403);
    expect(statusOf(response)).toBe(201);
    expect(response.body.id).toBe(model.nextPetId);
    model.pets.set(model.nextPetId++, this.status);
  }
  toString = () => `${this.key} creates a ${this.status} pet`;
}

class PlaceOrder implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly key: KeyName,
    readonly choice: number,
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const petId = pick([...model.pets.keys()], this.choice);
    const response = await real.as[this.key].post('/v1/store/orders').send({ petId });
    const status = statusOf(response);
    if (!may(this.key, 'orders:write')) return void expect(status).toBe(403);
    const open = [...model.orders.values()].filter(
      (order) =>
        order.owner === this.key && (order.status === 'placed' || order.status === 'approved'),
    ).length;
    if (open >= CAPS[this.key]) {
      expect(response.body).toMatchObject({ status: 409, code: 'open_order_limit' });
      return void expect(response.body.message).toContain(String(CAPS[this.key]));
    }
    const pet = model.pets.get(petId);
    if (pet === undefined) return void expect(status).toBe(404);
    if (pet !== 'available') {
      expect(response.body).toMatchObject({ status: 409, code: 'pet_not_available' });
      return void expect(response.body.message).toContain(pet);
    }
    expect(status).toBe(201);
    expect(response.body).toMatchObject({
      id: model.nextOrderId,
      petId,
      status: 'placed',
      cancelReason: null,
    });
    expect(Date.parse(response.body.expiresAt) - Date.parse(response.body.placedAt)).toBe(
      HOLD_SECONDS * 1000,
    );
    model.orders.set(model.nextOrderId++, {
      petId,
      owner: this.key,
      status: 'placed',
      holdLeft: HOLD_SECONDS,
      cancelReason: null,
    });
    model.pets.set(petId, 'pending');
  }
  toString = () => `${this.key} orders pet #${this.choice}`;
}

class UpdateOrder implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly key: KeyName,
    readonly choice: number,
    readonly to: Target,
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const orderId = pick([...model.orders.keys()], this.choice);
    const response = await real.as[this.key]
      .patch(`/v1/store/orders/${orderId}`)
      .send({ status: this.to });
    const status = statusOf(response);
    const manages = may(this.key, 'orders:manage');
    if (!manages && (this.to !== 'cancelled' || !may(this.key, 'orders:write'))) {
      return void expect(status).toBe(403);
    }
    const order = model.orders.get(orderId);
    if (!order || (!manages && order.owner !== this.key)) return void expect(status).toBe(404);
    if (!NEXT[order.status].includes(this.to)) {
      return void expect(response.body.code).toBe('invalid_transition');
    }
    expect(status).toBe(200);
    order.status = this.to;
    order.cancelReason = this.to === 'cancelled' ? 'requested' : null;
    expect(response.body).toMatchObject({
      id: orderId,
      status: this.to,
      expiresAt: null,
      cancelReason: order.cancelReason,
    });
    model.pets.set(order.petId, PET_FOLLOWS[this.to]);
  }
  toString = () => `${this.key} moves order #${this.choice} to ${this.to}`;
}

class ListOrders implements fc.AsyncCommand<Model, Real> {
  constructor(readonly key: KeyName) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const response = await real.as[this.key].get('/v1/store/orders?limit=100');
    const status = statusOf(response);
    const manages = may(this.key, 'orders:manage');
    if (!manages && !may(this.key, 'orders:read')) return void expect(status).toBe(403);
    const expected = [...model.orders]
      .filter(([, order]) => manages || order.owner === this.key)
      .map(([id, order]) => ({
        id,
        petId: order.petId,
        status: order.status,
        cancelReason: order.cancelReason,
      }));
    expect(status).toBe(200);
    expect(
      response.body.map(({ id, petId, status, cancelReason }: Record<string, unknown>) => ({
        id,
        petId,
        status,
        cancelReason,
      })),
    ).toEqual(expected);
  }
  toString = () => `${this.key} lists orders`;
}

class GetInventory implements fc.AsyncCommand<Model, Real> {
  constructor(readonly key: KeyName) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const response = await real.as[this.key].get('/v1/store/inventory');
    if (!may(this.key, 'pets:read')) return void expect(statusOf(response)).toBe(403);
    expect(statusOf(response)).toBe(200);
    const expected = { available: 0, pending: 0, sold: 0 };
    for (const status of model.pets.values()) expected[status] += 1;
    expect(response.body).toEqual(expected);
  }
  toString = () => `${this.key} counts the pets`;
}

/**
 * The clock the model controls: `seconds` pass for every hold (the service's holds are moved back
 * by as much, since it reads PostgreSQL's clock), then the lapsed orders are swept as every
 * instance does on its own timer.
 */
class TimePasses implements fc.AsyncCommand<Model, Real> {
  constructor(readonly seconds: number) {}
  check = () => true;
  async run(model: Model, real: Real) {
    await real.t.dataSource.query(
      `UPDATE orders SET expires_at = expires_at - make_interval(secs => $1)
        WHERE status = 'placed'`,
      [this.seconds],
    );
    const swept = await real.t.app.get(CancelLapsedOrders).execute();
    const expected = [];
    for (const [id, order] of model.orders) {
      if (order.status !== 'placed') continue;
      order.holdLeft -= this.seconds;
      if (order.holdLeft > 0) continue;
      order.status = 'cancelled';
      order.cancelReason = 'expired';
      model.pets.set(order.petId, 'available');
      expected.push(id);
    }
    // Swept here or a moment ago by the instance's own timer: either way, each exactly once.
    for (const order of swept) expect(expected).toContain(order.id);
    const reasons = await real.t.dataSource.query(
      `SELECT id FROM orders WHERE cancel_reason = 'expired' ORDER BY id`,
    );
    expect(reasons.map((r: { id: string }) => Number(r.id))).toEqual(
      [...model.orders].filter(([, o]) => o.cancelReason === 'expired').map(([id]) => id),
    );
  }
  toString = () => `${this.seconds} s pass`;
}

/** What must hold after every step, read from the database itself. */
async function checkInvariants(model: Model, real: Real): Promise<void> {
  const pets = await real.t.dataSource.query('SELECT id, status FROM pets ORDER BY id');
  expect(pets.map((p: { id: string; status: string }) => [Number(p.id), p.status])).toEqual([
    ...model.pets,
  ]);
  const doubled = await real.t.dataSource.query(
    `SELECT pet_id FROM orders WHERE status IN ('placed', 'approved')
     GROUP BY pet_id HAVING count(*) > 1`,
  );
  expect(doubled).toEqual([]);
  const open = await real.t.dataSource.query(
    `SELECT o.pet_id, p.status FROM orders o JOIN pets p ON p.id = o.pet_id
     WHERE o.status IN ('placed', 'approved') AND p.status <> 'pending'`,
  );
  expect(open).toEqual([]);
  const [counted] = await real.t.dataSource.query(
    'SELECT coalesce(sum(count), 0)::int AS total FROM pet_status_counts',
  );
  expect(counted.total).toBe(model.pets.size);
  const openByKey = await real.t.dataSource.query(
    `SELECT owner_key_id AS "keyId", count(*)::int AS open FROM orders
      WHERE status IN ('placed', 'approved') GROUP BY owner_key_id`,
  );
  for (const { keyId, open } of openByKey) {
    expect(open).toBeLessThanOrEqual(real.caps.get(String(keyId)) ?? 0);
  }
}

describe(`the store against a model (seed ${seed}, ${runs} runs)`, () => {
  let t: TestApp;
  let as: Real['as'];
  const caps = new Map<string, number>();

  beforeAll(async () => {
    // The instance's own sweeper runs too, as rarely as it may: TimePasses sweeps when time moves.
    t = await startTestApp({
      ORDER_HOLD_SECONDS: String(HOLD_SECONDS),
      ORDER_SWEEP_INTERVAL_MS: '60000',
    });
    const entries = await Promise.all(
      KEYS.map(async (key) => {
        const limits = { perMinute: 1_000_000, perDay: 100_000_000, openOrders: CAPS[key] };
        const issued = await t.issueKey({ scopes: SCOPES[key], limits });
        caps.set(issued.id, CAPS[key]);
        return [key, apiClient(t.url, issued.auth)];
      }),
    );
    as = Object.fromEntries(entries);
  });
  afterAll(() => t.close());

  it('keeps every rule through random sequences of calls by keys of different scopes', async () => {
    const key = fc.constantFrom(...KEYS);
    const choice = fc.nat(15);
    const commands = [
      fc
        .tuple(key, fc.constantFrom<PetStatus>('available', 'available', 'pending', 'sold'))
        .map(([k, s]) => new CreatePet(k, s)),
      fc.tuple(key, choice).map(([k, c]) => new PlaceOrder(k, c)),
      fc
        .tuple(key, choice, fc.constantFrom<Target>('approved', 'delivered', 'cancelled'))
        .map(([k, c, to]) => new UpdateOrder(k, c, to)),
      key.map((k) => new ListOrders(k)),
      key.map((k) => new GetInventory(k)),
      fc.constantFrom(10, 60, 99, 100, 120).map((seconds) => new TimePasses(seconds)),
    ];
    await fc.assert(
      fc.asyncProperty(
        // Long sequences: a lifecycle needs a create, an order and a move in that order.
        fc.commands(commands, { maxCommands: 40, size: 'max' }),
        async (sequence) => {
          await resetDatabase(t.dataSource);
          const model: Model = { pets: new Map(), orders: new Map(), nextPetId: 1, nextOrderId: 1 };
          const real: Real = { t, as, caps };
          const checked = [...sequence].map((command) => ({
            check: () => true,
            run: async (m: Model, r: Real) => {
              await command.run(m, r);
              await checkInvariants(m, r);
            },
            toString: () => command.toString(),
          }));
          await fc.asyncModelRun(() => ({ model, real }), checked);
        },
      ),
      { seed, numRuns: runs },
    );
  });
});
