import { NewPet, Pet, PetId, PetPatch } from '../domain/pet';
import { Adoption } from '../domain/pet-rules';
import { VersionPrecondition } from '../../common/versions';
import { GoodWith, PetAge, PetSex, PetSize } from '../domain/pet-profile-shape';
import { PetStatus } from '../domain/pet-status';
import { OrganizationId } from '../../common/ownership';
import { GeoPoint } from '../../common/geo';

/**
 * What an adopter looks for (CONTRACT.md "Finding"), each filter when given, all combined: an
 * animal must meet every one.
 */
export interface PetFinding {
  /** Only the pets with these ids (ascending, each once): fetching animals by id (v1.4). */
  ids?: readonly PetId[];
  /** Any of these statuses (two or more; one is PetPageQuery's `status`). */
  statuses?: readonly PetStatus[];
  organizationId?: number;
  /** Its id in its shelter's other system (v1.4), exactly. */
  externalId?: string;
  /** Its primary or secondary breed, whatever the case of either. */
  breed?: string;
  ages?: readonly PetAge[];
  sexes?: readonly PetSex[];
  sizes?: readonly PetSize[];
  /** Good with every one of these, as its environment says (true). */
  goodWith?: readonly GoodWith[];
  houseTrained?: boolean;
  specialNeeds?: boolean;
  /** Only pets with a photo. */
  hasPhotos?: true;
  /** Only pets whose organisation's location is within `radiusKm` of `point`; each gets its distance. */
  near?: { point: GeoPoint; radiusKm: number };
  /** In this order rather than by id; `after` is then the last pet of the page before. */
  order?: PetOrder;
}

/**
 * A page's order besides the ids' (CONTRACT.md "Finding", `sort`): newest first, by name, or
 * shuffled the same way on every page for one seed. Ties, and the rest, go by id.
 */
export type PetOrder =
  | { by: 'newest' }
  /** Its organisation's distance from `near`'s point, then the organisation's id, then its own. */
  | { by: 'distance' }
  | { by: 'name' }
  | {
      by: 'random';
      /** Where the shuffled order starts: from -2^31 to 2^31 - 1 (the shuffle key's range). */
      start: number;
    };

export interface PetPageQuery {
  /** Only pets with this status, when given. */
  status?: PetStatus;
  /** Only pets of this category, when given. */
  categoryId?: number;
  /** Only pets whose name contains this text, whatever the case of either, when given. */
  name?: string;
  /** v1.3's finding filters, when any is given: a page of them is a statement of its own. */
  finding?: PetFinding;
  /** Only pets whose id is greater than this (keyset pagination). */
  after?: PetId;
  /** Maximum number of pets to return. */
  limit: number;
}

/**
 * A rule a change must pass, asked with the pet as it is and what its adoption says, while no one
 * else can change either: it throws to refuse, and then nothing changes.
 */
export type ChangeRule = (current: Pet, adoption: Adoption) => void;

/** A pet after an update, and whether the update changed it (a patch of its own values does not). */
export interface PetUpdate {
  pet: Pet;
  changed: boolean;
}

/**
 * Port: where pets are kept. A deleted pet stays for its orders' sake but is gone from every
 * method here: not found, not listed, not changed. Pages are ordered by ascending id. Every
 * category a stored pet names exists (it is created, unnamed, with the pet that first names it).
 */
export abstract class PetRepository {
  abstract add(pet: NewPet): Promise<Pet>;

  /**
   * Adds pets in one statement, answered in the order given: a shelter's file creates hundreds at
   * a time, where a round trip each cost more than the rows.
   */
  abstract addMany(pets: readonly NewPet[]): Promise<Pet[]>;

  abstract findById(id: PetId): Promise<Pet | null>;

  abstract findPage(query: PetPageQuery): Promise<Pet[]>;

  /** The organisation's live pets that carry any of these external ids (v1.4). */
  abstract findByExternalIds(
    organizationId: OrganizationId,
    externalIds: readonly string[],
  ): Promise<Pet[]>;

  /**
   * Applies a non-empty `patch` to the pet, in one atomic step, if `precondition` admits its
   * version (else PetVersionMismatchError) and, when the patch changes its status, `rule` allows
   * it. Null: no such pet among the `owner` organisation's (another's is not found).
   */
  abstract update(
    id: PetId,
    owner: OrganizationId,
    patch: PetPatch,
    precondition: VersionPrecondition | undefined,
    rule: ChangeRule,
  ): Promise<PetUpdate | null>;

  /**
   * Deletes the pet, in one atomic step, if `precondition` admits its version (else
   * PetVersionMismatchError) and `rule` allows it; returns it as it was deleted. Null: no such pet
   * among the `owner` organisation's.
   */
  abstract remove(
    id: PetId,
    owner: OrganizationId,
    precondition: VersionPrecondition | undefined,
    rule: ChangeRule,
  ): Promise<Pet | null>;
}
