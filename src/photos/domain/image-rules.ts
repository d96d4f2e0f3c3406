import { formatOfBytes, formatOfMediaType, ImageFormat, MEDIA_TYPES } from './image-format';
import { ImageTooLargeError, ImageTooManyPixelsError, UnsupportedImageError } from './photo.errors';

/** The largest upload accepted: 10 MiB. */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

/**
 * The most pixels an upload may have, judged from its header before a pixel is decoded: a small
 * file may declare a huge image (a decompression bomb), and decoding allocates what it declares.
 */
export const MAX_IMAGE_PIXELS = 40_000_000;

/**
 * The format of an upload, judged from its bytes: JPEG, PNG or WebP, and what its Content-Type
 * says. Anything else, or a header naming another type than the bytes are, is refused (415), as
 * is a body over MAX_IMAGE_BYTES (413).
 */
export function checkUpload(bytes: Uint8Array, contentType: string | undefined): ImageFormat {
  if (bytes.length > MAX_IMAGE_BYTES) throw new ImageTooLargeError(MAX_IMAGE_BYTES);
  const format = formatOfBytes(bytes);
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

/** Refuses an image whose header declares more than MAX_IMAGE_PIXELS, before it is decoded. */
export function checkPixels(width: number, height: number): void {
  if (width * height > MAX_IMAGE_PIXELS)
    throw new ImageTooManyPixelsError(width, height, MAX_IMAGE_PIXELS);
}
