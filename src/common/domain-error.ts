/**
 * Base of every error the domain and application layers raise on purpose.
 * `code` is stable and part of the public contract; the HTTP edge maps it to a status.
 */
export abstract class DomainError extends Error {
  abstract readonly code: string;

  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}
