import { Injectable } from '@nestjs/common';
import { EventRecorder } from '../../common/events/event-recorder';
import { Requester } from '../../common/requester';
import { checkScope } from '../../common/scopes';
import { Transactions } from '../../common/transactions';
import { VersionPrecondition } from '../../common/versions';
import {
  ApplicantView,
  ApplicationId,
  isApplicantOf,
  isStaffFor,
  StaffView,
  viewFor,
} from '../domain/application';
import { ApplicationNotFoundError } from '../domain/application.errors';
import { ApplicationPatch, applyPatch, Audience, patchProblems } from '../domain/application-patch';
import { eventsOfChange, questionnaireOf } from './application-events';
import { ApplicationRepository } from './application.repository';

/**
 * Staff review, approve (the animal held by an order for the applicant's key), deny (with a
 * reason) and assign; the applicant's key withdraws (cancelling the hold's order) or corrects
 * its application while `submitted`. Each change with its events, in one transaction.
 */
@Injectable()
export class UpdateApplication {
  constructor(
    private readonly applications: ApplicationRepository,
    private readonly events: EventRecorder,
    private readonly transactions: Transactions,
  ) {}

  async execute(
    requester: Requester,
    id: ApplicationId,
    patch: ApplicationPatch,
    precondition?: VersionPrecondition,
  ): Promise<StaffView | ApplicantView> {
    checkScope(['applications:write', 'applications:manage'], requester.scopes);
    const found = await this.applications.findById(id);
    if (!found || !viewFor(requester, found)) throw new ApplicationNotFoundError(id);
    // A key both staff and applicant (a shelter's own key applying) acts as the applicant when
    // it sends what only an applicant sends.
    const applicantOnly =
      patch.status === 'withdrawn' || patch.applicant !== undefined || patch.answers !== undefined;
    const audience: Audience =
      isStaffFor(requester, found) && !(applicantOnly && isApplicantOf(requester, found))
        ? 'staff'
        : 'applicant';
    patchProblems(patch, audience);
    const questionnaire = (await questionnaireOf(
      this.applications,
      found.organizationId,
      found.questionnaireVersion,
    ))!;
    const intent =
      patch.status === 'approved' ? 'hold' : patch.status === 'withdrawn' ? 'release' : 'plain';
    const changed = await this.transactions.run(async () => {
      let told = false;
      const change = await this.applications.change(id, intent, precondition, (current) => {
        const outcome = applyPatch(current, patch, audience, questionnaire);
        if (!outcome) return null;
        told = outcome.told;
        const { told: _, ...rest } = outcome;
        return {
          ...rest,
          ...(rest.status === 'approved' ? { order: 'hold' as const } : {}),
          ...(rest.status === 'withdrawn' ? { order: 'release' as const } : {}),
        };
      });
      if (!change) throw new ApplicationNotFoundError(id);
      await this.events.record(eventsOfChange(change, told ? 'application.updated' : null));
      return change.application;
    });
    return viewFor(requester, changed)!;
  }
}
