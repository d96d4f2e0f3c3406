import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../../platform/config/app-config';
import { BackgroundPacing } from '../../platform/background/background-pacing';
import { PolledTask } from '../../platform/background/polled-task';
import {
  EraseExpiredApplications,
  ERASURES_PER_STEP,
} from '../application/erase-expired-applications.use-case';

/** Erasure is due within a day of its date: once a minute is plenty. */
const INTERVAL_MS = 60_000;

/** Erases expired applicants (EraseExpiredApplications) on every instance, paced (ADR 0056). */
@Injectable()
export class ApplicationRetention extends PolledTask {
  constructor(
    private readonly erase: EraseExpiredApplications,
    private readonly config: AppConfig,
    pacing: BackgroundPacing,
  ) {
    super(new Logger('Applications'), 'erase expired applications', pacing);
  }

  protected async step(): Promise<boolean> {
    return (await this.erase.execute(this.config.applications.retentionDays)) === ERASURES_PER_STEP;
  }

  protected intervalMs(): number {
    return INTERVAL_MS;
  }
}
