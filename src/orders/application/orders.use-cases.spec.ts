import { InsufficientScopeError } from '../../common/scopes';
import { IdempotencyKeyReusedError } from '../../platform/idempotency/idempotency';
import { InMemoryIdempotency } from '../../../test/fakes/in-memory-idempotency';
import { InMemoryEvents } from '../../../test/fakes/in-memory-events';
import {
  InMemoryOrderRepository,
  InMemoryPetInventory,
} from '../../../test/fakes/in-memory-order.repository';
import { OrderPlacer } from '../domain/order';
import {
  InvalidTransitionError,
  OpenOrderLimitError,
  OrderedPetNotFoundError,
  NotTheShelterError,
  OrderNotFoundError,
  PetNotAvailableError,
} from '../domain/order.errors';
import { GetInventory } from './get-inventory.use-case';
import { GetOrder } from './get-order.use-case';
import { ListOrders } from './list-orders.use-case';
import { PlaceOrder } from './place-order.use-case';
import { UpdateOrder } from './update-order.use-case';

const customer: OrderPlacer = {
  keyId: '1',
  scopes: ['pets:read', 'pets:write', 'orders:read', 'orders:write'],
  openOrderLimit: 5,
  organizationId: null,
};
const neighbour: OrderPlacer = { ...customer, keyId: '2' };
/** Staff of organisation 1, which owns the pets unless a test gives one to another. */
const shelter: OrderPlacer = {
  keyId: '3',
  scopes: ['orders:manage'],
  organizationId: 1,
  openOrderLimit: 5,
};
/** Staff of organisation 2, and a key that manages orders but belongs to no organisation. */
const otherShelter: OrderPlacer = { ...shelter, keyId: '5', organizationId: 2 };
const noShelter: OrderPlacer = { ...shelter, keyId: '6', organizationId: null };
const reader: OrderPlacer = {
  keyId: '4',
  scopes: ['pets:read'],
  organizationId: null,
  openOrderLimit: 5,
};

describe('the store use cases', () => {
  let orders: InMemoryOrderRepository;
  let place: PlaceOrder;
  let update: UpdateOrder;
  let events: InMemoryEvents;

  beforeEach(() => {
    events = new InMemoryEvents();
    orders = new InMemoryOrderRepository();
    orders.pets.set(1, 'available');
    orders.pets.set(2, 'available');
    orders.pets.set(3, 'sold');
    place = new PlaceOrder(orders, new InMemoryIdempotency(), events, events.transactions);
    update = new UpdateOrder(orders, events, events.transactions);
  });

  describe('PlaceOrder', () => {
    it('places an order for an available pet, which becomes pending', async () => {
      const { order, replayed } = await place.execute(customer, 1);
      expect(order).toMatchObject({ id: 1, petId: 1, owner: '1', status: 'placed' });
      expect(replayed).toBe(false);
      expect(orders.pets.get(1)).toBe('pending');
    });

    it('refuses a pet that is not available, naming its status, and one that does not exist', async () => {
      await place.execute(customer, 1);
      await expect(place.execute(neighbour, 1)).rejects.toThrow(
        new PetNotAvailableError(1, 'pending'),
      );
      await expect(place.execute(customer, 3)).rejects.toThrow('Pet 3 is sold');
      await expect(place.execute(customer, 99)).rejects.toThrow(OrderedPetNotFoundError);
    });

    it('refuses an order past the key cap on open orders, and counts only open ones', async () => {
      for (let id = 10; id < 13; id++) orders.pets.set(id, 'available');
      const capped = { ...customer, openOrderLimit: 2 };
      const first = await place.execute(capped, 10);
      await place.execute(capped, 11);
      await expect(place.execute(capped, 12)).rejects.toThrow(new OpenOrderLimitError(2));
      expect(orders.pets.get(12)).toBe('available');
      await update.execute(capped, first.order.id, 'cancelled');
      expect((await place.execute(capped, 12)).order.status).toBe('placed');
      // Another key has a cap of its own.
      expect((await place.execute({ ...neighbour, openOrderLimit: 1 }, 10)).order.owner).toBe('2');
    });

    it('answers a retry with the same Idempotency-Key with the first order', async () => {
      const key = { scope: 'key:1', key: 'adopt-rex' };
      const first = await place.execute(customer, 1, key);
      const retry = await place.execute(customer, 1, key);
      expect(retry).toEqual({ order: first.order, replayed: true });
      await expect(place.execute(customer, 2, key)).rejects.toThrow(IdempotencyKeyReusedError);
    });

    it('needs orders:write', async () => {
      await expect(place.execute(reader, 1)).rejects.toThrow(InsufficientScopeError);
      await expect(place.execute(shelter, 1)).rejects.toThrow(InsufficientScopeError);
      expect(orders.pets.get(1)).toBe('available');
    });
  });

  describe('UpdateOrder', () => {
    it('lets the shelter approve and deliver: the pet is sold', async () => {
      await place.execute(customer, 1);
      await update.execute(shelter, 1, 'approved');
      const delivered = await update.execute(shelter, 1, 'delivered');
      expect(delivered.status).toBe('delivered');
      expect(orders.pets.get(1)).toBe('sold');
    });

    it('lets a customer cancel its own order: the pet is available again', async () => {
      await place.execute(customer, 1);
      expect(await update.execute(customer, 1, 'cancelled')).toMatchObject({ status: 'cancelled' });
      expect(orders.pets.get(1)).toBe('available');
    });

    it("hides another key's order: the same 404 as a missing one", async () => {
      await place.execute(customer, 1);
      await expect(update.execute(neighbour, 1, 'cancelled')).rejects.toThrow(
        new OrderNotFoundError(1),
      );
      await expect(update.execute(customer, 42, 'cancelled')).rejects.toThrow(
        new OrderNotFoundError(42),
      );
      expect(orders.pets.get(1)).toBe('pending');
    });

    it('checks the scope before looking the order up, so a 403 tells nothing', async () => {
      await expect(update.execute(customer, 42, 'approved')).rejects.toThrow(
        InsufficientScopeError,
      );
      await expect(update.execute(reader, 42, 'cancelled')).rejects.toThrow(InsufficientScopeError);
    });

    it('refuses a transition the lifecycle does not have, changing nothing', async () => {
      await place.execute(customer, 1);
      await expect(update.execute(shelter, 1, 'delivered')).rejects.toThrow(InvalidTransitionError);
      expect((await orders.findById(1))?.status).toBe('placed');
      expect(orders.pets.get(1)).toBe('pending');
    });
  });

  describe('ListOrders and GetOrder', () => {
    beforeEach(async () => {
      await place.execute(customer, 1);
      await place.execute(neighbour, 2);
    });

    it("shows a key its own orders only, and a manager its organisation's pets'", async () => {
      const list = new ListOrders(orders);
      expect((await list.execute(customer, {})).orders.map((o) => o.id)).toEqual([1]);
      expect((await list.execute(neighbour, {})).orders.map((o) => o.id)).toEqual([2]);
      expect((await list.execute(shelter, {})).orders.map((o) => o.id)).toEqual([1, 2]);
      expect((await list.execute(otherShelter, {})).orders).toEqual([]);
      expect((await list.execute(noShelter, {})).orders).toEqual([]);
      await expect(list.execute(reader, {})).rejects.toThrow(InsufficientScopeError);
    });

    it("splits the orders between organisations by their pets', and shows a manager its own orders too", async () => {
      orders.pets.set(3, 'available').set(4, 'available');
      orders.organizations.set(3, 2);
      await place.execute(customer, 3);
      await place.execute({ ...otherShelter, scopes: ['orders:write', 'orders:manage'] }, 4);
      const list = new ListOrders(orders);
      expect((await list.execute(shelter, {})).orders.map((o) => o.id)).toEqual([1, 2, 4]);
      expect((await list.execute(otherShelter, {})).orders.map((o) => o.id)).toEqual([3, 4]);
      const get = new GetOrder(orders);
      await expect(get.execute(shelter, 3)).rejects.toThrow(new OrderNotFoundError(3));
      expect(await get.execute(otherShelter, 3)).toMatchObject({ id: 3, organizationId: 2 });
      await expect(update.execute(shelter, 3, 'approved')).rejects.toThrow(OrderNotFoundError);
      await expect(update.execute(otherShelter, 1, 'cancelled')).rejects.toThrow(
        OrderNotFoundError,
      );
      expect((await update.execute(otherShelter, 3, 'approved')).status).toBe('approved');
      // Its own order for another organisation's pet: a manager may cancel it, not approve it.
      await expect(
        update.execute(
          { ...otherShelter, scopes: ['orders:write', 'orders:manage'] },
          4,
          'approved',
        ),
      ).rejects.toThrow(NotTheShelterError);
      expect((await update.execute(otherShelter, 4, 'cancelled')).status).toBe('cancelled');
    });

    it('pages by id, with a cursor only when more match', async () => {
      const list = new ListOrders(orders);
      expect(await list.execute(shelter, { limit: 1 })).toMatchObject({ nextAfter: 1 });
      expect(await list.execute(shelter, { limit: 1, after: 1 })).toMatchObject({
        nextAfter: null,
      });
      expect((await list.execute(shelter, { petId: 2 })).orders.map((o) => o.id)).toEqual([2]);
    });

    it("gets a key's own order, and 404s another's", async () => {
      const get = new GetOrder(orders);
      expect(await get.execute(customer, 1)).toMatchObject({ id: 1, petId: 1 });
      await expect(get.execute(customer, 2)).rejects.toThrow(new OrderNotFoundError(2));
      expect(await get.execute(shelter, 2)).toMatchObject({ id: 2 });
      await expect(get.execute(noShelter, 2)).rejects.toThrow(new OrderNotFoundError(2));
    });
  });

  describe('GetInventory', () => {
    it('counts every status, zero included', async () => {
      await place.execute(customer, 1);
      expect(await new GetInventory(new InMemoryPetInventory(orders)).execute(reader)).toEqual({
        available: 1,
        pending: 1,
        sold: 1,
      });
      orders.pets.clear();
      expect(await new GetInventory(new InMemoryPetInventory(orders)).execute(reader)).toEqual({
        available: 0,
        pending: 0,
        sold: 0,
      });
    });

    it("counts one organisation's pets, zeros for one without any", async () => {
      orders.organizations.set(2, 7);
      const inventory = new GetInventory(new InMemoryPetInventory(orders));
      expect(await inventory.execute(reader, 7)).toEqual({ available: 1, pending: 0, sold: 0 });
      expect(await inventory.execute(reader, 99)).toEqual({ available: 0, pending: 0, sold: 0 });
    });

    it('needs pets:read', async () => {
      await expect(
        new GetInventory(new InMemoryPetInventory(orders)).execute(shelter),
      ).rejects.toThrow(InsufficientScopeError);
    });
  });

  describe('the events of each change', () => {
    const { id, ...placedWithoutId } = { id: 1, petId: 1, status: 'placed' };

    it('records order.placed with the order as answered, then pet.updated, once per placement', async () => {
      const key = { scope: 'key:1', key: 'retry-1' };
      const { order } = await place.execute(customer, 1, key);
      await place.execute(customer, 1, key);
      const { owner, organizationId, ...answered } = order;
      expect([owner, organizationId]).toEqual(['1', 1]);
      expect(events.recorded).toEqual([
        { type: 'order.placed', data: answered, owner: '1', organization: 1 },
        {
          type: 'pet.updated',
          data: expect.objectContaining({ id: 1, name: 'Pet 1', categoryId: 1, status: 'pending' }),
          organization: 1,
        },
      ]);
      expect(answered).toMatchObject({ id, ...placedWithoutId });
    });

    it('records each move of an order with its pet, and nothing for a refused one', async () => {
      await place.execute(customer, 1);
      await update.execute(shelter, 1, 'approved');
      await expect(update.execute(shelter, 1, 'approved')).rejects.toThrow(InvalidTransitionError);
      await expect(update.execute(neighbour, 1, 'cancelled')).rejects.toThrow(OrderNotFoundError);
      await update.execute(shelter, 1, 'delivered');
      await expect(place.execute(customer, 3)).rejects.toThrow(PetNotAvailableError);
      expect(
        events.recorded.map(({ type, data }) => [type, (data as { status: string }).status]),
      ).toEqual([
        ['order.placed', 'placed'],
        ['pet.updated', 'pending'],
        ['order.approved', 'approved'],
        ['order.delivered', 'delivered'],
        ['pet.updated', 'sold'],
      ]);
    });
  });
});
