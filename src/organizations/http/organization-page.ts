import { Requester } from '../../common/requester';
import { nearOf } from '../../platform/http/request/near-query.dto';
import { nextPageLink } from '../../platform/http/response/next-page-link';
import { ListOrganizations } from '../application/list-organizations.use-case';
import { MAX_ORGANIZATION_ID } from '../domain/organization';
import { ListOrganizationsQueryDto } from './dto/list-organizations-query.dto';
import { OrganizationDto } from './dto/organization.dto';

/**
 * A page of organisations as a listing answers it (the public one and the admin API's): the
 * organisations, and the link to the next page at `address`, carrying the query, when there is one.
 */
export async function organizationPage(
  listOrganizations: ListOrganizations,
  requester: Requester,
  query: ListOrganizationsQueryDto,
  address: string,
): Promise<{ organizations: OrganizationDto[]; link?: string }> {
  const { name, near, radiusKm } = query;
  const page = await listOrganizations.execute(requester, {
    name,
    near: nearOf(query),
    after:
      query.after === undefined ? undefined : Math.min(Number(query.after), MAX_ORGANIZATION_ID),
    limit: query.limit === undefined ? undefined : Number(query.limit),
  });
  const link =
    page.nextAfter === null
      ? undefined
      : nextPageLink(address, {
          limit: query.limit,
          name,
          near,
          radiusKm,
          after: String(page.nextAfter),
        });
  return { organizations: page.organizations.map(OrganizationDto.of), link };
}
