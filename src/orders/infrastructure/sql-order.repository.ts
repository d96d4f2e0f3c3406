import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../platform/config/app-config';
import { sqlInstant } from '../../platform/database/sql-instant';
import { AdvisoryLock, SqlStatement, SqlStatements } from '../../platform/database/sql-statements';
import { petPayloadJson } from '../../platform/event-log/pet-payload.sql';
import { PetOwnership } from '../../pets/application/ports/pet-ownership';
import { LapseReason, OrderPageQuery, OrderRepository } from '../application/order.repository';
import {
  cancelReasonOf,
  mayPlaceAnother,
  Order,
  OrderChange,
  ORDERABLE_PET_STATUS,
  OrderId,
  OrderStatus,
  petStatusFor,
} from '../domain/order';
import {
  OpenOrderLimitError,
  OrderedPetNotFoundError,
  PetNotAvailableError,
} from '../domain/order.errors';
import { OrderChangeRow, OrderMapper, OrderRow } from './order.mapper';

// The hot statements, as fixed text: a request builds no SQL (docs/adr/0008).
const COLUMNS = `id, pet_id AS "petId", owner_key_id AS "ownerKeyId",
  organization_id AS "organizationId", status,
  ${sqlInstant('placed_at')} AS "placedAt", ${sqlInstant('updated_at')} AS "updatedAt",
  ${sqlInstant('expires_at')} AS "expiresAt", cancel_reason AS "cancelReason"`;

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

/**
 * One statement, under the owner's lock: the pet becomes pending only if it is available and not
 * deleted (a concurrent order or deletion waits on the pet's row, then finds it changed and changes
 * nothing) and the owner holds fewer than $5 open orders, and the order exists only if the pet
 * changed. The partial unique index on open orders is the rule's last word, whatever else writes.
 * The pet comes back as the API answers it, for its event.
 */
const PLACE: SqlStatement = {
  name: 'orders_place',
  text: `WITH "pet" AS (
           UPDATE pets SET status = $3
            WHERE id = $1 AND status = $2 AND deleted_at IS NULL
              AND (SELECT count(*) FROM orders
                    WHERE owner_key_id = $4 AND status IN ('placed', 'approved')) < $5
           RETURNING id, organization_id, ${petPayloadJson('pets')} AS "payload"
         ), "order" AS (
           INSERT INTO orders (pet_id, owner_key_id, organization_id, status, expires_at)
           SELECT id, $4, organization_id, 'placed', now() + make_interval(secs => $6) FROM "pet"
           RETURNING ${COLUMNS}
         )
         SELECT "order".*, "pet"."payload" AS "pet" FROM "order", "pet"`,
};
const FIND_BY_ID: SqlStatement = {
  name: 'orders_find_by_id',
  text: `SELECT ${COLUMNS} FROM orders WHERE id = $1`,
};
const LOCK_BY_ID: SqlStatement = {
  name: 'orders_lock_by_id',
  text: `SELECT ${COLUMNS} FROM orders WHERE id = $1 FOR UPDATE`,
};
const MOVE: SqlStatement = {
  name: 'orders_move',
  text: `WITH "order" AS (
           UPDATE orders SET status = $2, updated_at = now(), expires_at = NULL, cancel_reason = $4
            WHERE id = $1 RETURNING ${COLUMNS}
         ), "pet" AS (
           UPDATE pets SET status = $3 FROM "order" WHERE pets.id = "order"."petId"
           RETURNING ${petPayloadJson('pets')} AS "payload"
         )
         SELECT "order".*, "pet"."payload" AS "pet" FROM "order", "pet"`,
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
 * Cancels a batch of `placed` orders that lapsed, skipping any another instance (or a client's
 * change) holds, and frees their pets in the same statement: an order is never cancelled twice.
 */
const lapsed = (name: string, where: string): SqlStatement => ({
  name,
  text: `WITH "lapsed" AS (
           SELECT id FROM orders WHERE status = 'placed' AND ${where}
            ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED
         ), "order" AS (
           UPDATE orders SET status = 'cancelled', cancel_reason = $1, expires_at = NULL,
                  updated_at = now()
             FROM "lapsed" WHERE orders.id = "lapsed".id
           RETURNING ${COLUMNS.replace(/\bid\b/, 'orders.id')}
         ), "pet" AS (
           UPDATE pets SET status = 'available' FROM "order" WHERE pets.id = "order"."petId"
           RETURNING pets.id, ${petPayloadJson('pets')} AS "payload"
         )
         SELECT "order".*, "pet"."payload" AS "pet"
           FROM "order" JOIN "pet" ON "pet".id = "order"."petId" ORDER BY "order".id`,
});
const CANCEL_LAPSED: Record<LapseReason, SqlStatement> = {
  expired: lapsed('orders_cancel_expired', 'expires_at <= now()'),
  // The API-key library's table: revocation and expiry are its business, what they mean for
  // orders is ours (an expired key's placed orders go as a revoked key's do).
  key_revoked: lapsed(
    'orders_cancel_of_revoked_keys',
    `owner_key_id IN (SELECT id FROM api_keys
                       WHERE revoked_at IS NOT NULL OR expires_at <= now())`,
  ),
};

/** The index that makes "one open order per pet" the database's rule. */
const ONE_OPEN_ORDER_PER_PET = 'orders_one_open_per_pet';

@Injectable()
export class SqlOrderRepository extends OrderRepository {
  private readonly holdSeconds: number;

  constructor(
    private readonly sql: SqlStatements,
    private readonly owners: PetOwnership,
    config: AppConfig,
  ) {
    super();
    this.holdSeconds = config.store.orderHoldSeconds;
  }

  place(petId: number, owner: string, openOrderLimit: number): Promise<OrderChange> {
    return this.sql.transaction(async () => {
      const [placed] = await this.placeIfAllowed(petId, owner, openOrderLimit);
      if (placed) return OrderMapper.toChange(placed);
      // Nothing placed: say why, from the key's orders and the pet as they are now.
      const [{ open }] = await this.sql.query<{ open: number }>(OPEN_ORDERS_OF_OWNER, [owner]);
      if (!mayPlaceAnother(open, openOrderLimit)) throw new OpenOrderLimitError(openOrderLimit);
      // A deleted pet is no pet to order: a 404, as for an id never given.
      const pet = await this.owners.ownerOf(petId);
      if (!pet) throw new OrderedPetNotFoundError(petId);
      throw new PetNotAvailableError(petId, pet.status);
    }, ownerLock(owner));
  }

  private placeIfAllowed(petId: number, owner: string, openOrderLimit: number) {
    return this.sql
      .query<OrderChangeRow>(PLACE, [
        petId,
        ORDERABLE_PET_STATUS,
        petStatusFor('placed'),
        owner,
        openOrderLimit,
        this.holdSeconds,
      ])
      .catch((error: unknown) => {
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
      const next = decide(OrderMapper.toDomain(row));
      const [moved] = await this.sql.query<OrderChangeRow>(MOVE, [
        id,
        next,
        petStatusFor(next),
        cancelReasonOf(next),
      ]);
      return OrderMapper.toChange(moved);
    });
  }

  async cancelLapsed(reason: LapseReason, batch: number): Promise<OrderChange[]> {
    const rows = await this.sql.query<OrderChangeRow>(CANCEL_LAPSED[reason], [reason, batch]);
    return rows.map(OrderMapper.toChange);
  }
}
