import { PetPayload } from '../../domain/pet-payload';

/**
 * Port, the pets feature's one way for another feature to move a pet's status (docs/adr/0068):
 * an order holds its pet, then sells or releases it. Each method runs in the caller's transaction
 * (joined through `Transactions`), where docs/adr/0046 puts `pets`: after `orders`. Each answers
 * the pet as the API answers it, as the change left it, for the caller's `pet.*` event.
 *
 * Each method sends its one statement when it is called, before its first await: a caller may
 * send a statement of its own behind it without waiting for its answer, in the same round trip
 * (the pool's connections are in pipeline mode). Exported by PetPortsModule.
 */
export abstract class PetHolds {
  /**
   * `available → pending`, if the pet is live and available; null when it is not (nothing
   * changed). The row stays locked until the transaction ends.
   */
  abstract hold(petId: number): Promise<PetPayload | null>;

  /** The held pet stays `pending` (its hold confirmed): the pet, its row locked. */
  abstract keep(petId: number): Promise<PetPayload>;

  /** The held pet is adopted: `sold`. */
  abstract sell(petId: number): Promise<PetPayload>;

  /** The holds of these pets ended: `available` again. The pets, in no particular order. */
  abstract release(petIds: readonly number[]): Promise<PetPayload[]>;
}
