import { Clock } from '../../src/common/clock';

/**
 * The system's time moved by `shiftMs`: a spec's app runs on real time until a test moves it
 * forward (retention, expiry), without waiting and without the database's own clock moving.
 */
export class ShiftedClock extends Clock {
  shiftMs = 0;

  now(): Date {
    return new Date(Date.now() + this.shiftMs);
  }
}
