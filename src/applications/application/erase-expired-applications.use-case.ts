import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock';
import { eraseOutcome } from '../domain/erasure';
import { questionnaireOf } from './application-events';
import { ApplicationRepository } from './application.repository';

/** Applications erased per step: a short step, paced as all background work (docs/adr/0056). */
export const ERASURES_PER_STEP = 100;
const DAY_MS = 86_400_000;

/**
 * Retention: erases the applicant of every ended (denied, withdrawn, closed) application whose
 * last change is APPLICATION_RETENTION_DAYS old. Answers how many it erased.
 */
@Injectable()
export class EraseExpiredApplications {
  constructor(
    private readonly applications: ApplicationRepository,
    private readonly clock: Clock,
  ) {}

  /** @param retentionDays APPLICATION_RETENTION_DAYS */
  async execute(retentionDays: number): Promise<number> {
    const before = new Date(this.clock.now().getTime() - retentionDays * DAY_MS);
    const expired = await this.applications.findErasable(before, ERASURES_PER_STEP);
    for (const application of expired) {
      const questionnaire = (await questionnaireOf(
        this.applications,
        application.organizationId,
        application.questionnaireVersion,
      ))!;
      // Ended applications hold nothing: erasing changes no order and tells no one.
      await this.applications.change(application.id, 'plain', undefined, (current) =>
        eraseOutcome(current, questionnaire),
      );
    }
    return expired.length;
  }
}
