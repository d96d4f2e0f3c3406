import { InMemoryIdempotency } from '../../../test/fakes/in-memory-idempotency';
import { InMemoryEvents } from '../../../test/fakes/in-memory-events';
import { InMemoryOrderRepository } from '../../../test/fakes/in-memory-order.repository';
import { OrderPlacer } from '../domain/order';
import { CancelLapsedOrders } from './cancel-lapsed-orders.use-case';
import { PlaceOrder } from './place-order.use-case';
import { UpdateOrder } from './update-order.use-case';

const customer: OrderPlacer = {
  keyId: '1',
  scopes: ['orders:read', 'orders:write'],
  openOrderLimit: 5,
  organizationId: null,
};

describe('CancelLapsedOrders', () => {
  let orders: InMemoryOrderRepository;
  let place: PlaceOrder;
  let cancelLapsed: CancelLapsedOrders;
  let events: InMemoryEvents;

  beforeEach(() => {
    events = new InMemoryEvents();
    orders = new InMemoryOrderRepository();
    for (let id = 1; id <= 4; id++) orders.pets.set(id, 'available');
    orders.holdSeconds = 60;
    place = new PlaceOrder(orders, new InMemoryIdempotency(), events, events.transactions);
    cancelLapsed = new CancelLapsedOrders(orders, events, events.transactions);
  });

  it('cancels placed orders past their hold, freeing their pets, and only those', async () => {
    const early = (await place.execute(customer, 1)).order;
    orders.nowMs += 30_000;
    await place.execute(customer, 2);
    const approved = (await place.execute(customer, 3)).order;
    await new UpdateOrder(orders, events, events.transactions).execute(
      { keyId: '9', scopes: ['orders:manage'], organizationId: 1 },
      approved.id,
      'approved',
    );
    expect(await cancelLapsed.execute()).toEqual([]);

    orders.nowMs += 30_000;
    const cancelled = await cancelLapsed.execute();
    expect(cancelled).toEqual([
      expect.objectContaining({
        id: early.id,
        status: 'cancelled',
        cancelReason: 'expired',
        expiresAt: null,
      }),
    ]);
    expect(orders.pets.get(1)).toBe('available');
    expect(orders.pets.get(2)).toBe('pending');
    expect(orders.pets.get(3)).toBe('pending');
    // Never twice.
    expect(await cancelLapsed.execute()).toEqual([]);
  });

  it("cancels a revoked key's placed orders as key_revoked", async () => {
    const mine = (await place.execute(customer, 1)).order;
    await place.execute({ ...customer, keyId: '2' }, 2);
    orders.revokedKeys.add('1');
    expect(await cancelLapsed.execute()).toEqual([
      expect.objectContaining({ id: mine.id, cancelReason: 'key_revoked' }),
    ]);
    expect(orders.pets.get(1)).toBe('available');
    expect(orders.pets.get(2)).toBe('pending');
  });

  it('records order.cancelled and pet.updated for each lapsed order', async () => {
    const mine = (await place.execute(customer, 1)).order;
    orders.revokedKeys.add('1');
    await cancelLapsed.execute();
    expect(events.recorded.slice(2)).toEqual([
      {
        type: 'order.cancelled',
        data: expect.objectContaining({ id: mine.id, cancelReason: 'key_revoked' }),
        owner: '1',
        organization: 1,
      },
      {
        type: 'pet.updated',
        data: expect.objectContaining({ id: 1, status: 'available' }),
        organization: 1,
      },
    ]);
    expect(events.recorded[2].data).not.toHaveProperty('owner');
  });
});
