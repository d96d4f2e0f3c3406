import { ERROR_CODES, ErrorCode } from '../../../common/error-codes';

/** What is wrong with one input of a `validation_failed` request. */
export type ValidationIssue = 'required' | 'unknown_field' | 'type' | 'range' | 'format' | 'enum';

export const VALIDATION_ISSUES: readonly ValidationIssue[] = [
  'required',
  'unknown_field',
  'type',
  'range',
  'format',
  'enum',
];

/**
 * One entry of `Error.details`: an input (a body field as a dotted path, a query or path
 * parameter, a header), what is wrong with it, and how to put it right.
 */
export interface ErrorDetail {
  field: string;
  issue: ValidationIssue;
  message: string;
}

/**
 * An error that already knows its HTTP answer: a catalogued code (its status follows), a message,
 * any headers the answer needs, and for `validation_failed` the details of each offending input.
 * The edge throws it; the global filter renders it.
 */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly details?: readonly ErrorDetail[],
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** A 400 `validation_failed` listing its details; its message is theirs, in order, as one. */
  static invalid(details: readonly ErrorDetail[]): ApiError {
    const message = details
      .map(({ message }, i) => (i < details.length - 1 ? message.replace(/\.$/, '') : message))
      .join('; ');
    return new ApiError('validation_failed', message, {}, details);
  }

  get status(): number {
    return ERROR_CODES[this.code].status;
  }
}
