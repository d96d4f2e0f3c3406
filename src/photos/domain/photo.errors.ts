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

/**
 * What is wrong with an upload's image, as the answer's `details` say it (the body is the input;
 * `range`: a bound it is outside of). The HTTP edge passes a domain error's `details` on.
 */
export interface ImageRuleBroken {
  readonly field: 'body';
  readonly issue: 'range';
  readonly message: string;
}

/** 16384 as 16,384: the way the documentation writes the bound. */
const thousands = (n: number) => String(n).replace(/\B(?=(\d{3})+$)/g, ',');

/** The header declares a side shorter or longer than an upload may have: refused before decoding. */
export class ImageSideOutOfRangeError extends DomainError {
  readonly code = 'validation_failed';
  readonly details: readonly ImageRuleBroken[];

  constructor(side: 'width' | 'height', width: number, height: number, min: number, max: number) {
    super(
      `The image is ${width} × ${height} pixels; its ${side} must be ${min} to ${thousands(max)} pixels.`,
    );
    this.details = [{ field: 'body', issue: 'range', message: this.message }];
  }
}

/** The header declares more pixels than an upload may have: refused before decoding. */
export class ImageTooManyPixelsError extends DomainError {
  readonly code = 'validation_failed';
  readonly details: readonly ImageRuleBroken[];

  constructor(width: number, height: number, limit: number) {
    const megapixels = (pixels: number) => Math.floor(pixels / 100_000) / 10;
    super(
      `The image is ${width} × ${height} pixels (${megapixels(width * height)} megapixels); at most ${megapixels(limit)} megapixels are accepted.`,
    );
    this.details = [{ field: 'body', issue: 'range', message: this.message }];
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

/**
 * The process decoding the image ended before it answered (killed, out of memory, a crash in the
 * image library): no photo was recorded and nothing of it stored; it may be sent again after
 * `retryAfterSeconds`, once the worker is replaced.
 */
export class ImageWorkerLostError extends DomainError {
  readonly code = 'service_unavailable';

  constructor(readonly retryAfterSeconds: number) {
    super(`The image could not be processed this time; retry in ${retryAfterSeconds} s.`);
  }
}
