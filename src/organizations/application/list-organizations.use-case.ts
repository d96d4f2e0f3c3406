import { Injectable } from '@nestjs/common';
import { GeoPoint } from '../../common/geo';
import { DEFAULT_PAGE_SIZE, keysetPage } from '../../common/paging';
import { Requester } from '../../common/requester';
import { checkScope } from '../../common/scopes';
import { Organization, OrganizationId, OrganizationNearby } from '../domain/organization';
import { OrganizationRepository } from './organization.repository';

export interface ListOrganizationsQuery {
  name?: string;
  near?: { point: GeoPoint; radiusKm: number };
  after?: OrganizationId;
  limit?: number;
}

export interface OrganizationPage {
  /** With `near`, each carries its distance from the point. */
  organizations: (Organization | OrganizationNearby)[];
  /** Id to pass as `after` for the next page, or null when this page is the last. */
  nextAfter: OrganizationId | null;
}

/** The shelters, public to every key that reads the catalogue: ascending id, keyset pages. */
@Injectable()
export class ListOrganizations {
  constructor(private readonly organizations: OrganizationRepository) {}

  async execute(
    requester: Requester,
    { name, near, after, limit = DEFAULT_PAGE_SIZE }: ListOrganizationsQuery,
  ): Promise<OrganizationPage> {
    checkScope(['pets:read'], requester.scopes);
    const rows = await this.organizations.findPage({ name, near, after, limit: limit + 1 });
    const { items: organizations, nextAfter } = keysetPage(rows, limit);
    return { organizations, nextAfter };
  }
}
