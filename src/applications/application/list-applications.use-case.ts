import { Injectable } from '@nestjs/common';
import { DEFAULT_PAGE_SIZE, keysetPage, KeysetPage } from '../../common/paging';
import { Requester } from '../../common/requester';
import { checkScope } from '../../common/scopes';
import {
  applicantView,
  ApplicantView,
  ApplicationStatus,
  PetId,
  StaffView,
  staffView,
} from '../domain/application';
import { ApplicationRepository } from './application.repository';

export interface ApplicationListQuery {
  readonly status?: ApplicationStatus;
  readonly petId?: PetId;
  /** Only those assigned to the requester's key (`assignee=me`). */
  readonly assignedToMe?: boolean;
  readonly after?: number;
  readonly limit?: number;
}

/**
 * A page of applications: a staff key's (`applications:manage` and an organisation) its
 * organisation's, any other key its own, in ascending id.
 */
@Injectable()
export class ListApplications {
  constructor(private readonly applications: ApplicationRepository) {}

  async execute(
    requester: Requester,
    query: ApplicationListQuery,
  ): Promise<KeysetPage<StaffView | ApplicantView>> {
    checkScope(['applications:write', 'applications:manage'], requester.scopes);
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const staff =
      requester.scopes.includes('applications:manage') && requester.organizationId !== null;
    const rows = await this.applications.findPage({
      ...(staff
        ? { organization: requester.organizationId! }
        : { applicantKeyId: requester.keyId }),
      status: query.status,
      petId: query.petId,
      assigneeKeyId: query.assignedToMe ? requester.keyId : undefined,
      after: query.after,
      limit,
    });
    return keysetPage(rows.map(staff ? staffView : applicantView), limit);
  }
}
