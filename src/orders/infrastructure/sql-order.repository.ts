import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../platform/config/app-config';
import { AdvisoryLock, SqlStatement, SqlStatements } from '../../platform/database/sql-statements';
import { PetPayload } from '../../pets/application/ports/pet-types';
import { PetHolds } from '../../pets/application/ports/pet-holds';
import { PetOwnership } from '../../pets/application/ports/pet-ownership';
import { LapseReason, OrderPageQuery, OrderRepository } from '../application/order.repository';
import {
  cancelReasonOf,
  mayPlaceAnother,
  Order,
  OrderChange,
  OrderId,
  OrderStatus,
  petStatusFor,
} from '../domain/order';
import {
  OpenOrderLimitError,
  OrderedPetNotFoundError,
  PetNotAvailableError,
} from '../domain/order.errors';
import { placeHeld } from './held-placement';
import { ORDER_COLUMNS, OrderMapper, OrderRow } from './order.mapper';

// The hot statements, as fixed text: a request builds no SQL (docs/adr/0008).
const COLUMNS = ORDER_COLUMNS;

/**
 * Serialises the placements of one key (docs/adr/0022), for the rest of the transaction: each
 * counts the key's open orders after the one before it committed. The first number names the
 * lock's use; two keys whose ids are equal modulo 2^31 only wait for each other.
 */
const ownerLock = (owner: string): AdvisoryLock => [20220, Number(BigInt(owner) % 2n ** 31n)];
const OPEN_ORDERS_OF_OWNER: SqlStatement = {
  name: 'orders_open_of_owner',
  text: `SELECT count(*)::int AS "open" FROM orders
         WHERE owner_key_id = $1 AND status IN ('placed', 'approved')`,
};
const FIND_BY_ID: SqlStatement = {
  name: 'orders_find_by_id',
  text: `SELECT ${COLUMNS} FROM orders WHERE id = $1`,
};
const LOCK_BY_ID: SqlStatement = {
  name: 'orders_lock_by_id',
  text: `SELECT ${COLUMNS} FROM orders WHERE id = $1 FOR UPDATE`,
};
/** The order's move; its pet moves through the pets feature (PetHolds), in the same round trip. */
const MOVE: SqlStatement = {
  name: 'orders_move_only',
  text: `UPDATE orders SET status = $2, updated_at = now(), expires_at = NULL, cancel_reason = $3
          WHERE id = $1 RETURNING ${COLUMNS}`,
};
/**
 * A page of the orders that `whose` selects: the status filter as a nullable parameter, the pet as
 * a statement of its own, so that each uses its index (the pet's when one is named, else the
 * owner's or the organisation's). The id range is closed (ids are at most 2^53 - 1): without
 * statistics the planner takes an open range for a third of the table and sorts the matches
 * instead of reading the index in order (docs/adr/0050).
 */
const ordersWhere = (whose: string, pet: boolean) =>
  `SELECT ${COLUMNS} FROM orders
    WHERE ${whose} AND ($1::varchar IS NULL OR status = $1)
      AND id > $2 AND id <= ${Number.MAX_SAFE_INTEGER}
      ${pet ? 'AND pet_id = $5' : ''}
    ORDER BY id LIMIT $3`;
/** A key's own orders ($4), of one pet ($5) or not. */
const pageOfOwner = (pet: boolean): SqlStatement => ({
  name: `orders_page_of_owner${pet ? '_and_pet' : ''}`,
  text: ordersWhere('owner_key_id = $4', pet),
});
/**
 * A key's own orders ($4) and its organisation's pets' (the last parameter), of one pet ($5) or
 * not: each page by its own index, merged; an order that is both is one (UNION), and the page
 * costs the same however deep it is.
 */
const pageOfOwnerAndOrganization = (pet: boolean): SqlStatement => ({
  name: `orders_page_of_owner_and_organization${pet ? '_and_pet' : ''}`,
  text: `SELECT * FROM ((${ordersWhere('owner_key_id = $4', pet)})
                      UNION (${ordersWhere(`organization_id = $${pet ? 6 : 5}`, pet)})) AS "orders"
         ORDER BY id LIMIT $3`,
});
const PAGES = [
  pageOfOwner(false),
  pageOfOwner(true),
  pageOfOwnerAndOrganization(false),
  pageOfOwnerAndOrganization(true),
];

/**
 * A batch of `placed` orders that lapsed, locked, skipping any another instance (or a client's
 * change) holds: an order is never cancelled twice. Their pets are freed (PetHolds.release), then
 * they are cancelled (CANCEL), in the order every change of an order takes: orders, pets, then
 * the applications its trigger closes (docs/adr/0046, 0067).
 */
const lapsed = (name: string, where: string): SqlStatement => ({
  name,
  text: `SELECT id, pet_id AS "petId" FROM orders WHERE status = 'placed' AND ${where}
          ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED`,
});
const LAPSED: Record<LapseReason, SqlStatement> = {
  expired: lapsed('orders_lapsed_expired', 'expires_at <= now()'),
  // The API-key library's table: revocation and expiry are its business, what they mean for
  // orders is ours (an expired key's placed orders go as a revoked key's do).
  key_revoked: lapsed(
    'orders_lapsed_of_revoked_keys',
    `owner_key_id IN (SELECT id FROM api_keys
                       WHERE revoked_at IS NOT NULL OR expires_at <= now())`,
  ),
};
const CANCEL_LAPSED: SqlStatement = {
  name: 'orders_cancel_lapsed',
  text: `UPDATE orders SET status = 'cancelled', cancel_reason = $1, expires_at = NULL,
                updated_at = now()
          WHERE id = ANY($2) RETURNING ${COLUMNS}`,
};

/** The index that makes "one open order per pet" the database's rule. */
const ONE_OPEN_ORDER_PER_PET = 'orders_one_open_per_pet';

@Injectable()
export class SqlOrderRepository extends OrderRepository {
  private readonly holdSeconds: number;

  constructor(
    private readonly sql: SqlStatements,
    private readonly owners: PetOwnership,
    private readonly pets: PetHolds,
    config: AppConfig,
  ) {
    super();
    this.holdSeconds = config.store.orderHoldSeconds;
  }

  place(petId: number, owner: string, openOrderLimit: number): Promise<OrderChange> {
    return this.sql.transaction(async () => {
      const { order, pet } = await this.holdAndPlace(petId, owner, openOrderLimit);
      if (order && pet) return { order, pet };
      // Nothing placed (a hold without its order is rolled back with the transaction): say why,
      // from the key's orders and the pet as they are now.
      const [{ open }] = await this.sql.query<{ open: number }>(OPEN_ORDERS_OF_OWNER, [owner]);
      if (!mayPlaceAnother(open, openOrderLimit)) throw new OpenOrderLimitError(openOrderLimit);
      // A deleted pet is no pet to order: a 404, as for an id never given.
      const found = await this.owners.ownerOf(petId);
      if (!found) throw new OrderedPetNotFoundError(petId);
      throw new PetNotAvailableError(petId, found.status);
    }, ownerLock(owner));
  }

  private holdAndPlace(petId: number, owner: string, openOrderLimit: number) {
    return placeHeld(this.sql, this.pets, {
      petId,
      owner,
      openOrderLimit,
      holdSeconds: this.holdSeconds,
    }).catch((error: unknown) => {
      // Only if something else made the pet available while it had an open order.
      const { code, constraint } = error as { code?: string; constraint?: string };
      if (code === '23505' && constraint === ONE_OPEN_ORDER_PER_PET) {
        throw new PetNotAvailableError(petId, petStatusFor('placed'));
      }
      throw error;
    });
  }

  async findById(id: OrderId): Promise<Order | null> {
    const [row] = await this.sql.query<OrderRow>(FIND_BY_ID, [id]);
    return row ? OrderMapper.toDomain(row) : null;
  }

  async findPage(query: OrderPageQuery): Promise<Order[]> {
    const { owner, organization, status, petId, after = 0, limit } = query;
    const statement = PAGES[(petId === undefined ? 0 : 1) | (organization === undefined ? 0 : 2)];
    const values: unknown[] = [status ?? null, after, limit, owner];
    if (petId !== undefined) values.push(petId);
    if (organization !== undefined) values.push(organization);
    const rows = await this.sql.query<OrderRow>(statement, values);
    return rows.map(OrderMapper.toDomain);
  }

  changeStatus(id: OrderId, decide: (current: Order) => OrderStatus): Promise<OrderChange | null> {
    return this.sql.transaction(async () => {
      // The row lock orders concurrent changes of one order: each decides on what the last did.
      const [row] = await this.sql.query<OrderRow>(LOCK_BY_ID, [id]);
      if (!row) return null;
      const current = OrderMapper.toDomain(row);
      const next = decide(current);
      // The pet, then the order (whose trigger closes applications): one round trip.
      const [pet, [moved]] = await Promise.all([
        this.movePet(current.petId, next),
        this.sql.query<OrderRow>(MOVE, [id, next, cancelReasonOf(next)]),
      ]);
      return { order: OrderMapper.toDomain(moved), pet };
    });
  }

  /** The pet follows its order (petStatusFor), through the pets feature. */
  private movePet(petId: number, to: OrderStatus): Promise<PetPayload> {
    switch (petStatusFor(to)) {
      case 'pending':
        return this.pets.keep(petId);
      case 'sold':
        return this.pets.sell(petId);
      case 'available':
        return this.pets.release([petId]).then(([pet]) => {
          if (!pet) throw new Error(`Held pet ${petId} is gone.`);
          return pet;
        });
    }
  }

  cancelLapsed(reason: LapseReason, batch: number): Promise<OrderChange[]> {
    return this.sql.transaction(async () => {
      const due = await this.sql.query<{ id: string; petId: string }>(LAPSED[reason], [batch]);
      if (due.length === 0) return [];
      const [pets, rows] = await Promise.all([
        this.pets.release(due.map(({ petId }) => Number(petId))),
        this.sql.query<OrderRow>(CANCEL_LAPSED, [reason, due.map(({ id }) => id)]),
      ]);
      const petOf = new Map(pets.map((pet) => [pet.id, pet]));
      return rows
        .map(OrderMapper.toDomain)
        .sort((a, b) => a.id - b.id)
        .flatMap((order) => {
          const pet = petOf.get(order.petId);
          return pet ? [{ order, pet }] : [];
        });
    });
  }
}
