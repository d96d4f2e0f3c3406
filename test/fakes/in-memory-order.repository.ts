import { PetStatus } from '../../src/common/pet-status';
import { Inventory, PetInventory } from '../../src/store/application/inventory';
import { OrderPageQuery, OrderRepository } from '../../src/store/application/order.repository';
import {
  OPEN_STATUSES,
  Order,
  ORDERABLE_PET_STATUS,
  OrderId,
  OrderStatus,
  petStatusFor,
} from '../../src/store/domain/order';
import { OrderedPetNotFoundError, PetNotAvailableError } from '../../src/store/domain/order.errors';

/**
 * Orders and the statuses of their pets in maps, for unit tests of the use cases: the port's
 * rules (the pet follows its order; one open order per pet), one caller at a time.
 */
export class InMemoryOrderRepository extends OrderRepository {
  readonly pets = new Map<number, PetStatus>();
  private readonly rows: Order[] = [];
  now = () => '2026-11-23T12:00:00.000Z';

  async place(petId: number, owner: string): Promise<Order> {
    const status = this.pets.get(petId);
    if (status === undefined) throw new OrderedPetNotFoundError(petId);
    if (status !== ORDERABLE_PET_STATUS) throw new PetNotAvailableError(petId, status);
    if (this.rows.some((order) => order.petId === petId && OPEN_STATUSES.includes(order.status))) {
      throw new Error('A second open order for one pet: the database would refuse it.');
    }
    const order: Order = {
      id: this.rows.length + 1,
      petId,
      owner,
      status: 'placed',
      placedAt: this.now(),
      updatedAt: this.now(),
    };
    this.rows.push(order);
    this.pets.set(petId, petStatusFor('placed'));
    return order;
  }

  async findById(id: OrderId): Promise<Order | null> {
    return this.rows.find((order) => order.id === id) ?? null;
  }

  async findPage({ owner, status, petId, after = 0, limit }: OrderPageQuery): Promise<Order[]> {
    return this.rows
      .filter(
        (order) =>
          order.id > after &&
          (owner === undefined || order.owner === owner) &&
          (status === undefined || order.status === status) &&
          (petId === undefined || order.petId === petId),
      )
      .slice(0, limit);
  }

  async changeStatus(id: OrderId, decide: (current: Order) => OrderStatus): Promise<Order | null> {
    const index = this.rows.findIndex((order) => order.id === id);
    if (index < 0) return null;
    const status = decide(this.rows[index]);
    this.rows[index] = { ...this.rows[index], status, updatedAt: this.now() };
    this.pets.set(this.rows[index].petId, petStatusFor(status));
    return this.rows[index];
  }
}

/** The inventory of an InMemoryOrderRepository's pets, counted one by one. */
export class InMemoryPetInventory extends PetInventory {
  constructor(private readonly orders: InMemoryOrderRepository) {
    super();
  }

  async counts(): Promise<Partial<Inventory>> {
    const counts: Partial<Inventory> = {};
    for (const status of this.orders.pets.values()) counts[status] = (counts[status] ?? 0) + 1;
    return counts;
  }
}
