/** Port for the time in Unix milliseconds, so window arithmetic is testable at any instant. */
export abstract class RateLimitClock {
  abstract now(): number;
}

export class SystemRateLimitClock extends RateLimitClock {
  now(): number {
    return Date.now();
  }
}
