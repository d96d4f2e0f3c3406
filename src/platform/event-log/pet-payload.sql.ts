import { sqlInstant } from '../database/sql-instant';

/**
 * The pet as the API answers it (PetPayload), as SQL over a `pets` row under `alias`: a feature
 * that changes a pet it does not own (an order moving its status) selects this in the statement
 * of the change, so the event carries the row as that transaction left it. One place to add a
 * column the API starts answering.
 */
export const petPayloadJson = (alias: string): string =>
  `json_build_object('id', ${alias}.id, 'name', ${alias}.name,
     'categoryId', ${alias}.category_id, 'status', ${alias}.status,
     'organizationId', ${alias}.organization_id, 'version', ${alias}.version,
     'createdAt', ${sqlInstant(`${alias}.created_at`)},
     'updatedAt', ${sqlInstant(`${alias}.updated_at`)})`;
