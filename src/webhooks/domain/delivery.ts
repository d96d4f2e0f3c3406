/**
 * A delivery is one event to one endpoint, attempted until an answer succeeds or the retry
 * schedule ends (docs/api.md, "Webhooks"). Pure rules: what an attempt's result means, and when
 * the next attempt is.
 */

/** Why an attempt failed without an HTTP answer. */
export const ATTEMPT_ERRORS = ['timeout', 'connection_failed', 'address_refused', 'tls'] as const;
export type AttemptError = (typeof ATTEMPT_ERRORS)[number];

export const ATTEMPT_OUTCOMES = ['succeeded', 'failed'] as const;
export type AttemptOutcome = (typeof ATTEMPT_OUTCOMES)[number];

/** What one attempt found: an answer's status, or the error that kept it from one. */
export interface AttemptResult {
  readonly responseStatus: number | null;
  readonly error: AttemptError | null;
  readonly durationMs: number;
  /** The answer's Retry-After, in seconds, when it said one. */
  readonly retryAfterSeconds?: number;
}

/** Each delay of the schedule is moved at random by up to this share, either way. */
export const JITTER = 0.2;
/** A receiver's Retry-After delays the next attempt by at most this. */
export const MAX_RETRY_AFTER_SECONDS = 3600;

/** What follows an attempt. */
export interface AttemptDecision {
  readonly outcome: AttemptOutcome;
  /** Seconds until the next attempt; null when there is none (succeeded, or the schedule ended). */
  readonly retryInSeconds: number | null;
  /** The endpoint answered 410: it is disabled at once. */
  readonly gone: boolean;
}

/** A 2xx answer succeeds; anything else fails: other statuses (3xx included), and errors. */
export function outcomeOf(result: AttemptResult): AttemptOutcome {
  const status = result.responseStatus;
  return result.error === null && status !== null && status >= 200 && status < 300
    ? 'succeeded'
    : 'failed';
}

/** `seconds` moved by up to ±JITTER, `random` being uniform in [0, 1). */
export function jittered(seconds: number, random: () => number): number {
  return seconds * (1 - JITTER + 2 * JITTER * random());
}

/**
 * After the `step`-th attempt of a series (1 for the first), given the schedule of delays: done,
 * or the next attempt after the scheduled delay with jitter, or after the receiver's Retry-After
 * (429 and 503 only, at most an hour) when that is later. A 410 ends the delivery: the endpoint
 * is disabled.
 */
export function decide(
  result: AttemptResult,
  step: number,
  schedule: readonly number[],
  random: () => number,
): AttemptDecision {
  const outcome = outcomeOf(result);
  const gone = result.responseStatus === 410;
  if (outcome === 'succeeded' || step > schedule.length) {
    return { outcome, retryInSeconds: null, gone };
  }
  let delay = jittered(schedule[step - 1], random);
  const status = result.responseStatus;
  if ((status === 429 || status === 503) && result.retryAfterSeconds !== undefined) {
    delay = Math.max(delay, Math.min(result.retryAfterSeconds, MAX_RETRY_AFTER_SECONDS));
  }
  return { outcome, retryInSeconds: delay, gone };
}

/**
 * A Retry-After header as seconds from `now`: a whole number of seconds or an HTTP date.
 * Undefined when absent or unreadable.
 */
export function retryAfterSeconds(header: string | undefined, now: number): number | undefined {
  if (header === undefined) return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}
