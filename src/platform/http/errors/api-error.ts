import { ERROR_CODES, ErrorCode } from '../../../common/error-codes';

/**
 * An error that already knows its HTTP answer: a catalogued code (its status follows), a message,
 * and any headers the answer needs. The edge throws it; the global filter renders it.
 */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  get status(): number {
    return ERROR_CODES[this.code].status;
  }
}
