import { DomainError } from '../../common/domain-error';
import type { PetStatus } from '../../pets/application/ports/pet-types';

export class OrderNotFoundError extends DomainError {
  readonly code = 'not_found';

  /** `id` as the client wrote it: it may be beyond any id an order can have. */
  constructor(id: number | string) {
    super(`No order with id ${id}.`);
  }
}

export class OrderedPetNotFoundError extends DomainError {
  readonly code = 'not_found';

  constructor(petId: number) {
    super(`No pet with id ${petId}.`);
  }
}

export class PetNotAvailableError extends DomainError {
  readonly code = 'pet_not_available';

  constructor(petId: number, status: PetStatus) {
    super(`Pet ${petId} is ${status}, not available: it cannot be ordered.`);
  }
}

export class OpenOrderLimitError extends DomainError {
  readonly code = 'open_order_limit';

  constructor(cap: number) {
    super(
      `This key already holds ${cap} open orders, as many as its plan allows: ` +
        'one must be delivered or cancelled first.',
    );
  }
}

export class InvalidTransitionError extends DomainError {
  readonly code = 'invalid_transition';

  constructor(id: number, from: string, to: string) {
    super(`Order ${id} is ${from}: it cannot become ${to}.`);
  }
}

/** An order's own key asked to approve or deliver it: only the shelter whose pet it is does. */
export class NotTheShelterError extends DomainError {
  readonly code = 'forbidden';

  constructor(id: number) {
    super(
      `Order ${id} can be approved or delivered only by the staff of the organisation whose pet it is; its own key may cancel it.`,
    );
  }
}
