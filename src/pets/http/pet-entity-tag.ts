import { IfMatchCondition, strongEntityTag } from '../../platform/http/request/entity-tags';
import { Pet } from '../domain/pet';
import { MAX_PET_VERSION, VersionPrecondition } from '../domain/pet-version';

/** A pet's entity tag: its version, quoted (`"3"`); strong, since a version names one state. */
export const petEntityTag = (pet: Pick<Pet, 'version'>) => strongEntityTag(String(pet.version));

/** The `ETag` response header of a single-pet answer, as the OpenAPI document states it. */
export const ETAG_HEADER = {
  ETag: {
    description:
      'The animal\'s version as a strong entity tag (`"3"`): send it back in `If-Match` to change the animal only as it was read',
    schema: { type: 'string' },
  },
};

/**
 * What an If-Match condition asks of a pet's version. A tag that is no version this service gives
 * (`"abc"`, `"0"`, `"03"`) stays in the list and matches no version.
 */
export function versionPreconditionOf(
  condition: IfMatchCondition | undefined,
): VersionPrecondition | undefined {
  if (!condition) return undefined;
  if (condition.any) return { anyVersion: true };
  const versions = condition.tags
    .filter((tag) => /^[1-9][0-9]{0,9}$/.test(tag))
    .map(Number)
    .filter((version) => version <= MAX_PET_VERSION);
  return { anyVersion: false, versions };
}
