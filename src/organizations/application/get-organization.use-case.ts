import { Injectable } from '@nestjs/common';
import { Requester } from '../../common/requester';
import { checkScope } from '../../common/scopes';
import { Organization, OrganizationId } from '../domain/organization';
import { OrganizationNotFoundError } from '../domain/organization.errors';
import { OrganizationRepository } from './organization.repository';

@Injectable()
export class GetOrganization {
  constructor(private readonly organizations: OrganizationRepository) {}

  async execute(requester: Requester, id: OrganizationId): Promise<Organization> {
    checkScope(['pets:read'], requester.scopes);
    const organization = await this.organizations.findById(id);
    if (!organization) throw new OrganizationNotFoundError(id);
    return organization;
  }
}
