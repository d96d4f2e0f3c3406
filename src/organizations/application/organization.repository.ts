import { GeoPoint } from '../../common/geo';
import { VersionPrecondition } from '../../common/versions';
import {
  Organization,
  OrganizationId,
  OrganizationNearby,
  OrganizationProfile,
} from '../domain/organization';

export interface OrganizationPageQuery {
  /** Only organisations whose name contains this text, whatever the case of either. */
  name?: string;
  /** Only organisations within `radiusKm` of this point, each with its distance. */
  near?: { point: GeoPoint; radiusKm: number };
  /** Only organisations whose id is greater than this (keyset pagination). */
  after?: OrganizationId;
  limit: number;
}

/** Port: where organisations are kept. Pages are ordered by ascending id. */
export abstract class OrganizationRepository {
  /** Stores a new organisation; OrganizationNameTakenError when its name is taken. */
  abstract add(profile: OrganizationProfile): Promise<Organization>;

  abstract findById(id: OrganizationId): Promise<Organization | null>;

  abstract findPage(query: OrganizationPageQuery): Promise<(Organization | OrganizationNearby)[]>;

  /**
   * Changes the organisation, in one atomic step, to what `change` makes of it as it is (null:
   * nothing to change), if `precondition` admits its version (else
   * OrganizationVersionMismatchError); OrganizationNameTakenError when the new name is taken.
   * Null: no such organisation.
   */
  abstract update(
    id: OrganizationId,
    precondition: VersionPrecondition | undefined,
    change: (current: Organization) => OrganizationProfile | null,
  ): Promise<Organization | null>;
}
