import { isFindableNearby, Organization, OrganizationNearby } from '../../domain/organization';

/**
 * An organisation as the API answers it, members in the document's order: `OrganizationDto.of`,
 * which checks it against the DTO. Apart from the DTO, whose OpenAPI decorators load
 * @nestjs/swagger: the command line prints organisations in the same shape and loads none of it.
 */
export function organizationAnswer(organization: Organization | OrganizationNearby) {
  const { id, name, email, phone, website, address, location, adoptionPolicy } = organization;
  const { version, createdAt, updatedAt } = organization;
  return {
    id,
    name,
    email,
    phone,
    website,
    address,
    location,
    findableNearby: isFindableNearby(organization),
    adoptionPolicy,
    version,
    createdAt,
    updatedAt,
    ...('distanceKm' in organization ? { distanceKm: organization.distanceKm } : {}),
  };
}
