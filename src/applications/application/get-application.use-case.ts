import { Injectable } from '@nestjs/common';
import { Requester } from '../../common/requester';
import { checkScope } from '../../common/scopes';
import { ApplicantView, ApplicationId, StaffView, viewFor } from '../domain/application';
import { ApplicationNotFoundError } from '../domain/application.errors';
import { ApplicationRepository } from './application.repository';

/** One application, as its reader's audience sees it; a 404 to anyone else. */
@Injectable()
export class GetApplication {
  constructor(private readonly applications: ApplicationRepository) {}

  async execute(requester: Requester, id: ApplicationId): Promise<StaffView | ApplicantView> {
    checkScope(['applications:write', 'applications:manage'], requester.scopes);
    const found = await this.applications.findById(id);
    const view = found && viewFor(requester, found);
    if (!view) throw new ApplicationNotFoundError(id);
    return view;
  }
}
