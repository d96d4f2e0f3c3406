import { QUERY_READ_TIMEOUT } from './statement-deadlines';

/** Network-level error codes of Node and pg that mean "the database cannot be reached". */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'EAI_AGAIN',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '57014', // query_canceled (statement timeout)
]);

const UNREACHABLE_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  QUERY_READ_TIMEOUT,
  'Client has encountered a connection error',
  'Connection ended unexpectedly',
];

/** Whether an error means the database is unreachable (a 503), as opposed to a bug (a 500). */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (
    let e = error as
      { code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown } | undefined;
    e;
  ) {
    if (typeof e.code === 'string' && (UNREACHABLE_CODES.has(e.code) || e.code.startsWith('08'))) {
      return true;
    }
    if (
      typeof e.message === 'string' &&
      UNREACHABLE_MESSAGES.some((m) => (e!.message as string).includes(m))
    ) {
      return true;
    }
    e = (e.driverError ?? e.cause) as typeof e;
  }
  return false;
}

/**
 * SQLSTATEs of a transaction PostgreSQL ended so that others could go on: a deadlock (40P01) or a
 * serialization failure (40001). Nothing of it was kept; run again, it may well succeed.
 */
const CONFLICT_CODES = new Set(['40P01', '40001']);

/** Whether an error is a transaction conflict (CONFLICT_CODES), however wrapped. */
export function isTransactionConflict(error: unknown): boolean {
  for (
    let e = error as { code?: unknown; driverError?: unknown; cause?: unknown } | undefined;
    e;
    e = (e.driverError ?? e.cause) as typeof e
  ) {
    if (typeof e.code === 'string' && CONFLICT_CODES.has(e.code)) return true;
  }
  return false;
}
