import { Injectable, Logger } from '@nestjs/common';
import { BackgroundPacing } from '../../platform/background/background-pacing';
import { PolledTask } from '../../platform/background/polled-task';
import {
  ForgetReleasedImages,
  RELEASES_PER_STEP,
} from '../application/forget-released-images.use-case';

/**
 * How often an instance with nothing to do looks for released images. A deleted pet's images
 * must answer 404 on every instance within a second (CONTRACT.md "Trust, round 4 (v1.4)"); the
 * bytes are shared by every instance (one directory or one bucket), so whichever instance looks
 * first removes them for all. The look is one statement on an empty or nearly empty table.
 */
const INTERVAL_MS = 250;

/**
 * Deletes the bytes of the images whose photos went with their pet (ForgetReleasedImages), on
 * every instance from start to shutdown, paced as all background work (docs/adr/0056).
 */
@Injectable()
export class ReleasedImagesSweeper extends PolledTask {
  constructor(
    private readonly forget: ForgetReleasedImages,
    pacing: BackgroundPacing,
  ) {
    super(new Logger('Photos'), 'delete the images of deleted pets', pacing);
  }

  protected async step(): Promise<boolean> {
    return (await this.forget.execute()) === RELEASES_PER_STEP;
  }

  protected intervalMs(): number {
    return INTERVAL_MS;
  }
}
