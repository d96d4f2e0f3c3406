import { Injectable, Logger } from '@nestjs/common';
import { BackgroundPacing } from '../../platform/background/background-pacing';
import { PolledTask } from '../../platform/background/polled-task';
import { ProcessImports } from '../application/process-imports.use-case';

/** How often an instance with nothing to do looks for an import: one indexed statement. */
const INTERVAL_MS = 200;

/**
 * Imports shelters' files, a batch a step, on every instance from start to shutdown, paced as all
 * background work (docs/adr/0056): the next step waits as long as the last took, so that an import
 * holds at most half of a core and of a database backend while the API answers.
 */
@Injectable()
export class ImportWorker extends PolledTask {
  constructor(
    private readonly process: ProcessImports,
    pacing: BackgroundPacing,
  ) {
    super(new Logger('Imports'), 'import a file', pacing);
  }

  protected step(): Promise<boolean> {
    return this.process.execute();
  }

  protected intervalMs(): number {
    return INTERVAL_MS;
  }
}
