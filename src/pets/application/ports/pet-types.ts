/**
 * The pets feature's published language (docs/adr/0068): what another feature says of a pet it
 * does not own (an order's `pet.updated`, an export's columns, a photo on the pet). The pets
 * feature defines them in its domain; other features take them from here, never from its domain.
 * Plain types and constants: another feature's domain may import them, as types only.
 */
export type { PetPayload } from '../../domain/pet-payload';
export type { PetPhoto } from '../../domain/pet-photo';
export { isPetStatus, PET_STATUSES } from '../../domain/pet-status';
export type { PetStatus } from '../../domain/pet-status';
export { PET_PROFILE_MEMBERS, UNKNOWN_PROFILE } from '../../domain/pet-profile-shape';
export type { PetProfile } from '../../domain/pet-profile-shape';
