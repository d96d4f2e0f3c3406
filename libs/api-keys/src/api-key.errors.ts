/**
 * The error codes this library answers with, in the body of its HttpExceptions (`unauthorized`)
 * and on ApiKeyRequestError: an application maps them to its own responses.
 */
export type ApiKeyErrorCode = 'unauthorized' | 'validation_failed' | 'not_found' | 'conflict';

/** A request to the key service that cannot be honoured; `code` is stable. */
export class ApiKeyRequestError extends Error {
  constructor(
    readonly code: Exclude<ApiKeyErrorCode, 'unauthorized'>,
    message: string,
  ) {
    super(message);
    this.name = 'ApiKeyRequestError';
  }
}
