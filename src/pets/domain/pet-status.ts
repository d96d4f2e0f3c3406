/**
 * The statuses of a pet: the pets feature stores them, and the store feature moves pets between
 * them as orders go (a shared kernel, so that neither feature imports the other).
 */
export const PET_STATUSES = ['available', 'pending', 'sold'] as const;

export type PetStatus = (typeof PET_STATUSES)[number];

/** Status a pet gets when its creator does not say. */
export const DEFAULT_PET_STATUS: PetStatus = 'available';

export function isPetStatus(value: unknown): value is PetStatus {
  return (PET_STATUSES as readonly unknown[]).includes(value);
}
