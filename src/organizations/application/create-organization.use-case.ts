import { Injectable } from '@nestjs/common';
import { NewOrganizationInput, newOrganization, Organization } from '../domain/organization';
import { OrganizationRepository } from './organization.repository';

/**
 * Onboards a shelter: only the operator does (the admin API and the command line), so it takes no
 * requester; its staff's keys are issued next, in the organisation.
 */
@Injectable()
export class CreateOrganization {
  constructor(private readonly organizations: OrganizationRepository) {}

  execute(input: NewOrganizationInput): Promise<Organization> {
    return this.organizations.add(newOrganization(input));
  }
}
