import { Injectable } from '@nestjs/common';
import { EventRecorder } from '../../common/events/event-recorder';
import { Requester } from '../../common/requester';
import { checkScope } from '../../common/scopes';
import { Transactions } from '../../common/transactions';
import { ApplicationId, viewFor } from '../domain/application';
import { ApplicationNotFoundError } from '../domain/application.errors';
import { eraseOutcome } from '../domain/erasure';
import { eventsOfChange, questionnaireOf } from './application-events';
import { ApplicationRepository } from './application.repository';

/**
 * Replaces the applicant's personal data and every text answer by null, for good; status, dates
 * and decision stay. An open application ends with it (`closed`, `erased`), its hold released.
 */
@Injectable()
export class EraseApplicant {
  constructor(
    private readonly applications: ApplicationRepository,
    private readonly events: EventRecorder,
    private readonly transactions: Transactions,
  ) {}

  async execute(requester: Requester, id: ApplicationId): Promise<void> {
    checkScope(['applications:write', 'applications:manage'], requester.scopes);
    const found = await this.applications.findById(id);
    if (!found || !viewFor(requester, found)) throw new ApplicationNotFoundError(id);
    const questionnaire = (await questionnaireOf(
      this.applications,
      found.organizationId,
      found.questionnaireVersion,
    ))!;
    await this.transactions.run(async () => {
      const change = await this.applications.change(id, 'release', undefined, (current) =>
        eraseOutcome(current, questionnaire),
      );
      if (!change) throw new ApplicationNotFoundError(id);
      const closed = change.application.closedReason === 'erased' && found.closedReason === null;
      await this.events.record(eventsOfChange(change, closed ? 'application.closed' : null));
    });
  }
}
