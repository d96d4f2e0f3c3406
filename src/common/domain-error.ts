import { ErrorCode } from './error-codes';

/**
 * Base of every error the domain and application layers raise on purpose. `code` is stable, part
 * of the public contract, and one of the catalogue's (a code outside it does not compile); the
 * HTTP edge answers with the catalogue's status.
 */
export abstract class DomainError extends Error {
  abstract readonly code: ErrorCode;

  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}
