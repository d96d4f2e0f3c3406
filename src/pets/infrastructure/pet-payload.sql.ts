import { PET_PROFILE_MEMBERS } from '../domain/pet-profile-shape';
import { sqlInstant } from '../../platform/database/sql-instant';

/** The profile's object members, member by member in the order answers give them. */
const OBJECT_MEMBERS: Record<string, readonly string[]> = {
  breed: ['primary', 'secondary', 'mixed'],
  attributes: ['spayedNeutered', 'houseTrained', 'specialNeeds', 'shotsCurrent'],
  environment: ['children', 'dogs', 'cats'],
};

/**
 * The profile's members as `json_build_object` arguments, in the answers' order (the `jsonb`
 * column keeps its keys in an order of its own, so each is taken out by name).
 */
const profileArguments = (alias: string) =>
  PET_PROFILE_MEMBERS.map((member) => {
    const fields = OBJECT_MEMBERS[member];
    const value = fields
      ? `json_build_object(${fields.map((f) => `'${f}', ${alias}.profile -> '${member}' -> '${f}'`).join(', ')})`
      : `${alias}.profile -> '${member}'`;
    return `'${member}', ${value}`;
  }).join(',\n     ');

/**
 * The pet as the API answers it (PetPayload), as SQL over a `pets` row under `alias`: a feature
 * that changes a pet it does not own (an order moving its status) selects this in the statement
 * of the change, so the event carries the row as that transaction left it. One place to add a
 * column the API starts answering.
 */
export const petPayloadJson = (alias: string): string =>
  `json_build_object('id', ${alias}.id, 'name', ${alias}.name,
     'categoryId', ${alias}.category_id, 'status', ${alias}.status,
     'organizationId', ${alias}.organization_id, 'externalId', ${alias}.external_id,
     ${profileArguments(alias)},
     'photos', ${alias}.photos,
     'version', ${alias}.version,
     'createdAt', ${sqlInstant(`${alias}.created_at`)},
     'updatedAt', ${sqlInstant(`${alias}.updated_at`)})`;
