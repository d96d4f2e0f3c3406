import { Injectable } from '@nestjs/common';
import { isStaffOf } from '../../common/ownership';
import { Requester } from '../../common/requester';
import { checkScope } from '../../common/scopes';
import { VersionPrecondition } from '../../common/versions';
import {
  checkPatch,
  Organization,
  OrganizationId,
  OrganizationPatch,
  patched,
  sameProfile,
} from '../domain/organization';
import { OrganizationNotFoundError } from '../domain/organization.errors';
import { OrganizationRepository } from './organization.repository';

@Injectable()
export class UpdateOrganization {
  constructor(private readonly organizations: OrganizationRepository) {}

  /**
   * Changes the requester's own organisation. Another's is a 404, as if it did not exist for this
   * operation (it is public to read), after the scope's 403 and before anything is read.
   */
  async execute(
    requester: Requester,
    id: OrganizationId,
    patch: OrganizationPatch,
    precondition?: VersionPrecondition,
  ): Promise<Organization> {
    checkScope(['organization:manage'], requester.scopes);
    checkPatch(patch);
    if (!isStaffOf(requester, id)) throw new OrganizationNotFoundError(id);
    const updated = await this.organizations.update(id, precondition, (current) => {
      const next = patched(current, patch);
      return sameProfile(current, next) ? null : next;
    });
    if (!updated) throw new OrganizationNotFoundError(id);
    return updated;
  }
}
