/** A request to the key service that cannot be honoured; `code` is stable. */
export class ApiKeyRequestError extends Error {
  constructor(
    readonly code: 'validation_failed' | 'not_found',
    message: string,
  ) {
    super(message);
    this.name = 'ApiKeyRequestError';
  }
}
