import { imageSize } from 'image-size';
import { ImageFormat } from '../domain/image-format';
import { UndecodableImageError, UnsupportedImageError } from '../domain/photo.errors';

/** An upload's header as the service reads it: its format and stored size, nothing decoded. */
export interface ImageHeader {
  readonly format: ImageFormat;
  /** As stored, before any orientation tag is applied. */
  readonly width: number;
  readonly height: number;
}

const FORMATS: Partial<Record<string, ImageFormat>> = { jpg: 'jpeg', png: 'png', webp: 'webp' };

/**
 * Reads the header of an upload already judged to be `format` from its first bytes (checkUpload):
 * its stored width and height, by image-size, which reads markers and chunks in JavaScript and
 * decodes nothing. The service never loads libvips for it: its library and its allocations stay in
 * the image workers, which read the header again before they decode a pixel
 * (image-pipeline.ts, checkedHeaderOf).
 */
export function readImageHeader(bytes: Uint8Array, format: ImageFormat): ImageHeader {
  let size: ReturnType<typeof imageSize>;
  try {
    size = imageSize(bytes);
  } catch {
    throw new UndecodableImageError();
  }
  if (FORMATS[size.type ?? ''] !== format) {
    throw new UnsupportedImageError(`The body is not a ${format} image throughout.`);
  }
  return { format, width: size.width, height: size.height };
}
