import { formatOfBytes, formatOfMediaType, ImageFormat, MEDIA_TYPES } from './image-format';
import {
  ImageSideOutOfRangeError,
  ImageTooLargeError,
  ImageTooManyPixelsError,
  UnsupportedImageError,
} from './photo.errors';

/** The largest upload accepted: 10 MiB. */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

/**
 * The most pixels an upload may have, judged from its header before a pixel is decoded: a small
 * file may declare a huge image (a decompression bomb), and decoding allocates what it declares.
 */
export const MAX_IMAGE_PIXELS = 40_000_000;

/**
 * The format of an upload of `size` bytes, judged from its first bytes (`head`): JPEG, PNG or
 * WebP, and what its Content-Type says. Anything else, or a header naming another type than the
 * bytes are, is refused (415), as is a body over MAX_IMAGE_BYTES (413).
 */
export function checkUpload(
  head: Uint8Array,
  size: number,
  contentType: string | undefined,
): ImageFormat {
  if (size > MAX_IMAGE_BYTES) throw new ImageTooLargeError(MAX_IMAGE_BYTES);
  const format = formatOfBytes(head);
  if (format === null) {
    throw new UnsupportedImageError('The body is not a JPEG, PNG or WebP image.');
  }
  const declared = formatOfMediaType(contentType);
  if (declared !== format) {
    throw new UnsupportedImageError(
      `The body is a ${MEDIA_TYPES[format]} image, but its Content-Type says ${contentType ?? 'nothing'}.`,
    );
  }
  return format;
}

/**
 * The shortest and longest side an upload may have, in pixels. Below 16 px there is no picture of
 * an animal to show; beyond 16,384 px no camera takes one, and a sliver such as 1 × 66,000 px
 * (208 bytes of PNG) only makes work: within 40 megapixels it would be decoded in full, and no
 * variant of it is an image (issue 44). Together they bound the aspect ratio to 1,024:1, so every
 * variant keeps at least 1 px on its shorter side within 2,048 px on its longer.
 */
export const MIN_IMAGE_SIDE = 16;
export const MAX_IMAGE_SIDE = 16_384;

/**
 * Refuses an image whose header declares a side outside MIN_IMAGE_SIDE..MAX_IMAGE_SIDE or more
 * than MAX_IMAGE_PIXELS, before it is decoded: decoding allocates what the header declares.
 */
export function checkDimensions(width: number, height: number): void {
  for (const [side, pixels] of [
    ['width', width],
    ['height', height],
  ] as const) {
    if (!Number.isInteger(pixels) || pixels < MIN_IMAGE_SIDE || pixels > MAX_IMAGE_SIDE) {
      throw new ImageSideOutOfRangeError(side, width, height, MIN_IMAGE_SIDE, MAX_IMAGE_SIDE);
    }
  }
  if (width * height > MAX_IMAGE_PIXELS)
    throw new ImageTooManyPixelsError(width, height, MAX_IMAGE_PIXELS);
}
