import { Injectable } from '@nestjs/common';
import { PetPayload } from '../domain/pet-payload';
import { SqlStatement, SqlStatements } from '../../platform/database/sql-statements';
import { petPayloadJson } from './pet-payload.sql';
import { PetHolds } from '../application/ports/pet-holds';

const PAYLOAD = `${petPayloadJson('pets')} AS "payload"`;

/**
 * Only a live, available pet is held: a concurrent hold or deletion waits on the pet's row, then
 * finds it changed and changes nothing.
 */
const HOLD: SqlStatement = {
  name: 'pets_hold',
  text: `UPDATE pets SET status = 'pending'
          WHERE id = $1 AND status = 'available' AND deleted_at IS NULL
         RETURNING ${PAYLOAD}`,
};
/**
 * The status a hold's end gives its pet, whatever the pet's status is (an order holding it owns
 * it: a change by hand is refused while it is open). A deleted pet never changes (its trigger),
 * and one with an open order is never deleted.
 */
const moveTo = (status: string): SqlStatement => ({
  name: `pets_held_${status}`,
  text: `UPDATE pets SET status = '${status}' WHERE id = $1 RETURNING ${PAYLOAD}`,
});
const KEEP = moveTo('pending');
const SELL = moveTo('sold');
const RELEASE: SqlStatement = {
  name: 'pets_release',
  text: `UPDATE pets SET status = 'available' WHERE id = ANY($1) RETURNING ${PAYLOAD}`,
};

type PayloadRow = { payload: PetPayload };

@Injectable()
export class SqlPetHolds extends PetHolds {
  constructor(private readonly sql: SqlStatements) {
    super();
  }

  async hold(petId: number): Promise<PetPayload | null> {
    const [row] = await this.sql.query<PayloadRow>(HOLD, [petId]);
    return row?.payload ?? null;
  }

  keep(petId: number): Promise<PetPayload> {
    return this.moved(petId, this.sql.query<PayloadRow>(KEEP, [petId]));
  }

  sell(petId: number): Promise<PetPayload> {
    return this.moved(petId, this.sql.query<PayloadRow>(SELL, [petId]));
  }

  async release(petIds: readonly number[]): Promise<PetPayload[]> {
    if (petIds.length === 0) return [];
    const rows = await this.sql.query<PayloadRow>(RELEASE, [petIds]);
    return rows.map(({ payload }) => payload);
  }

  /** The statement was sent by the caller, at once; its answer is awaited here. */
  private async moved(petId: number, sent: Promise<PayloadRow[]>): Promise<PetPayload> {
    const [row] = await sent;
    if (!row) throw new Error(`Held pet ${petId} is gone.`);
    return row.payload;
  }
}
