import { PetPayload, PetStatus, UNKNOWN_PROFILE } from '../../src/pets/application/ports/pet-types';
import { Inventory, PetInventory } from '../../src/orders/application/inventory';
import {
  LapseReason,
  OrderPageQuery,
  OrderRepository,
} from '../../src/orders/application/order.repository';
import {
  cancelReasonOf,
  mayPlaceAnother,
  OPEN_STATUSES,
  Order,
  OrderChange,
  ORDERABLE_PET_STATUS,
  OrderId,
  OrderStatus,
  petStatusFor,
} from '../../src/orders/domain/order';
import {
  OpenOrderLimitError,
  OrderedPetNotFoundError,
  PetNotAvailableError,
} from '../../src/orders/domain/order.errors';

/**
 * Orders and the statuses of their pets in maps, for unit tests of the use cases: the port's
 * rules (the pet follows its order; one open order per pet), one caller at a time.
 */
export class InMemoryOrderRepository extends OrderRepository {
  readonly pets = new Map<number, PetStatus>();
  /** The organisation of each pet that is not organisation 1's: tests set them. */
  readonly organizations = new Map<number, number>();
  /** Keys revoked: their placed orders lapse. */
  readonly revokedKeys = new Set<string>();
  private readonly rows: Order[] = [];
  /** The clock, Unix ms; tests move it. */
  nowMs = Date.parse('2026-11-23T12:00:00.000Z');
  holdSeconds = 259_200;
  now = () => new Date(this.nowMs).toISOString();

  /** A pet as the API would answer it: these fakes keep only statuses, so the rest is made up. */
  petPayload(id: number): PetPayload {
    const at = this.now();
    const status = this.pets.get(id)!;
    return {
      id,
      name: `Pet ${id}`,
      categoryId: 1,
      status,
      organizationId: this.organizationOf(id),
      externalId: null,
      photos: [],
      ...UNKNOWN_PROFILE,
      version: 1,
      createdAt: at,
      updatedAt: at,
    };
  }

  /** The organisation of a pet: 1 unless the spec placed it elsewhere. */
  organizationOf(petId: number): number {
    return this.organizations.get(petId) ?? 1;
  }

  private changed(order: Order): OrderChange {
    return { order, pet: this.petPayload(order.petId) };
  }

  async place(petId: number, owner: string, openOrderLimit: number): Promise<OrderChange> {
    const open = this.rows.filter((o) => o.owner === owner && OPEN_STATUSES.includes(o.status));
    if (!mayPlaceAnother(open.length, openOrderLimit))
      throw new OpenOrderLimitError(openOrderLimit);
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
      organizationId: this.organizationOf(petId),
      status: 'placed',
      placedAt: this.now(),
      updatedAt: this.now(),
      expiresAt: new Date(this.nowMs + this.holdSeconds * 1000).toISOString(),
      cancelReason: null,
    };
    this.rows.push(order);
    this.pets.set(petId, petStatusFor('placed'));
    return this.changed(order);
  }

  async findById(id: OrderId): Promise<Order | null> {
    return this.rows.find((order) => order.id === id) ?? null;
  }

  async findPage(query: OrderPageQuery): Promise<Order[]> {
    const { owner, organization, status, petId, after = 0, limit } = query;
    return this.rows
      .filter(
        (order) =>
          order.id > after &&
          (order.owner === owner || order.organizationId === organization) &&
          (status === undefined || order.status === status) &&
          (petId === undefined || order.petId === petId),
      )
      .slice(0, limit);
  }

  async changeStatus(
    id: OrderId,
    decide: (current: Order) => OrderStatus,
  ): Promise<OrderChange | null> {
    const index = this.rows.findIndex((order) => order.id === id);
    if (index < 0) return null;
    const status = decide(this.rows[index]);
    this.rows[index] = {
      ...this.rows[index],
      status,
      updatedAt: this.now(),
      expiresAt: null,
      cancelReason: cancelReasonOf(status),
    };
    this.pets.set(this.rows[index].petId, petStatusFor(status));
    return this.changed(this.rows[index]);
  }

  async cancelLapsed(reason: LapseReason, batch: number): Promise<OrderChange[]> {
    const lapsed = this.rows
      .filter(
        (o) =>
          o.status === 'placed' &&
          (reason === 'expired'
            ? Date.parse(o.expiresAt!) <= this.nowMs
            : this.revokedKeys.has(o.owner)),
      )
      .slice(0, batch);
    return lapsed.map((order) => {
      const index = this.rows.indexOf(order);
      this.rows[index] = {
        ...order,
        status: 'cancelled',
        updatedAt: this.now(),
        expiresAt: null,
        cancelReason: reason,
      };
      this.pets.set(order.petId, petStatusFor('cancelled'));
      return this.changed(this.rows[index]);
    });
  }
}

/** The inventory of an InMemoryOrderRepository's pets, counted one by one. */
export class InMemoryPetInventory extends PetInventory {
  constructor(private readonly orders: InMemoryOrderRepository) {
    super();
  }

  async counts(): Promise<Partial<Inventory>> {
    return this.countsWhere(() => true);
  }

  async countsOf(organizationId: number): Promise<Partial<Inventory>> {
    return this.countsWhere((petId) => this.orders.organizationOf(petId) === organizationId);
  }

  private countsWhere(counted: (petId: number) => boolean): Partial<Inventory> {
    const counts: Partial<Inventory> = {};
    for (const [petId, status] of this.orders.pets) {
      if (counted(petId)) counts[status] = (counts[status] ?? 0) + 1;
    }
    return counts;
  }
}
