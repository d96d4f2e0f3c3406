import { PetPayload } from '../../pets/application/ports/pet-types';
import { SqlStatement, SqlStatements } from '../../platform/database/sql-statements';
import { PetHolds } from '../../pets/application/ports/pet-holds';
import { Order } from '../domain/order';
import { ORDER_COLUMNS, OrderMapper, OrderRow } from './order.mapper';

/**
 * The order that holds a pet, sent right behind the pets feature's hold (PetHolds.hold) in the
 * same round trip, without its answer: it exists only if that hold changed the pet, which it
 * knows from the pet's row, last written by this very transaction (`xmin`; the service opens no
 * subtransactions), and only if the owner holds fewer than $3 open orders (null: no cap). If it
 * is refused after the hold, the caller throws and the hold is rolled back with the transaction.
 * The partial unique index on open orders is the rule's last word, whatever else writes.
 */
const PLACE: SqlStatement = {
  name: 'orders_place_held',
  text: `INSERT INTO orders (pet_id, owner_key_id, organization_id, status, expires_at)
         SELECT id, $2, organization_id, 'placed', now() + make_interval(secs => $4)
           FROM pets
          WHERE id = $1 AND xmin = pg_current_xact_id()::xid
            AND ($3::bigint IS NULL
                 OR (SELECT count(*) FROM orders
                      WHERE owner_key_id = $2 AND status IN ('placed', 'approved')) < $3)
         RETURNING ${ORDER_COLUMNS}`,
};

export interface Placement {
  petId: number;
  /** The API key the order is for. */
  owner: string;
  /** The most open orders the owner may hold, this one included; null: no cap. */
  openOrderLimit: number | null;
  holdSeconds: number;
}

/**
 * Holds the pet and places its order, in the caller's transaction and one round trip (docs/adr/
 * 0068): the pet as the hold left it (null: not held, nothing changed) and the order (null: not
 * placed). A pet held with no order placed (the owner's cap) must be rolled back by the caller.
 */
export async function placeHeld(
  sql: SqlStatements,
  pets: PetHolds,
  { petId, owner, openOrderLimit, holdSeconds }: Placement,
): Promise<{ pet: PetPayload | null; order: Order | null }> {
  const [pet, [placed]] = await Promise.all([
    pets.hold(petId),
    sql.query<OrderRow>(PLACE, [petId, owner, openOrderLimit, holdSeconds]),
  ]);
  return { pet, order: placed ? OrderMapper.toDomain(placed) : null };
}
