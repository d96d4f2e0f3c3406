import { DomainError } from '../../common/domain-error';

/** The pet does not exist, or another organisation owns it: either way, not found. */
export class PetNotOwnedError extends DomainError {
  readonly code = 'not_found';

  constructor(petId: number | string) {
    super(`No pet with id ${petId}.`);
  }
}

export class PhotoNotFoundError extends DomainError {
  readonly code = 'not_found';

  constructor(petId: number, photoId: number | string) {
    super(`Pet ${petId} has no photo with id ${photoId}.`);
  }
}

export class PhotoLimitReachedError extends DomainError {
  readonly code = 'limit_reached';

  constructor(petId: number, limit: number) {
    super(`Pet ${petId} already has ${limit} photos, the most a pet may have: delete one first.`);
  }
}

export class PhotoPositionError extends DomainError {
  readonly code = 'validation_failed';

  constructor(position: number, count: number) {
    super(`position must be an integer from 1 to ${count} (the pet's photos), got ${position}.`);
  }
}

/** The body is no JPEG, PNG or WebP, or not the type its Content-Type names. */
export class UnsupportedImageError extends DomainError {
  readonly code = 'unsupported_media_type';
}

export class ImageTooLargeError extends DomainError {
  readonly code = 'payload_too_large';

  constructor(limit: number) {
    super(`The image is larger than ${limit / 1024 / 1024} MiB.`);
  }
}

/** The header declares more pixels than an upload may have: refused before decoding. */
export class ImageTooManyPixelsError extends DomainError {
  readonly code = 'validation_failed';

  constructor(width: number, height: number, limit: number) {
    const megapixels = (pixels: number) => Math.floor(pixels / 100_000) / 10;
    super(
      `The image is ${width} × ${height} pixels (${megapixels(width * height)} megapixels); at most ${megapixels(limit)} megapixels are accepted.`,
    );
  }
}

/** The bytes start like an image but do not decode to the end: truncated or corrupt. */
export class UndecodableImageError extends DomainError {
  readonly code = 'validation_failed';

  constructor() {
    super('The image does not decode: it is truncated or corrupt.');
  }
}

/**
 * As many images are being processed and waiting on this instance as it takes: the upload is
 * refused at once rather than held, and may be sent again after `retryAfterSeconds`.
 */
export class ImageProcessingBusyError extends DomainError {
  readonly code = 'service_unavailable';

  constructor(readonly retryAfterSeconds: number) {
    super(`Too many images are being processed; retry in ${retryAfterSeconds} s.`);
  }
}

export class PhotoImageNotFoundError extends DomainError {
  readonly code = 'not_found';

  constructor(key: string) {
    super(`No photo image ${key}.`);
  }
}
