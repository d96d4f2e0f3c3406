import { PetPayload } from '../../../pets/application/ports/pet-types';
import { OrderPayload } from '../../domain/order';

/** An order holding a pet, as a change left it and its pet: what the caller's events carry. */
export interface OrderHold {
  readonly orderId: number;
  /** The key the order is for: it reads the order's events. */
  readonly owner: string;
  /** The pet's organisation: its staff read the events. */
  readonly organizationId: number;
  /** The order as the API answers it: the data of `order.placed` or `order.cancelled`. */
  readonly order: OrderPayload;
  /** The pet as the API answers it: the data of `pet.updated`. */
  readonly pet: PetPayload;
}

/**
 * Port, the orders feature's one way for another feature to hold a pet through an order (docs/
 * adr/0067, 0068): an approved adoption application places the order that holds its animal, and
 * a withdrawal cancels it. Each runs in the caller's transaction and moves the pet through the
 * pets feature (PetHolds): the order's end (delivery, cancellation, lapse) then follows the
 * orders' own rules. The caller records the events (`order.*`, then `pet.updated`). Exported by
 * OrderPortsModule.
 */
export abstract class OrderHolds {
  /**
   * Places an order for `keyId` that holds the pet (`available → pending`), with no cap on the
   * key's open orders (the shelter decided). Null when the pet is not live and available:
   * nothing changed.
   */
  abstract placeFor(petId: number, keyId: string): Promise<OrderHold | null>;

  /**
   * Cancels the order as its client would (`requested`) if it is still open, and frees its pet.
   * Null when it is not open: nothing changed. Lock the order first (`orders` come first in the
   * lock order, docs/adr/0046).
   */
  abstract cancel(orderId: number): Promise<OrderHold | null>;
}
