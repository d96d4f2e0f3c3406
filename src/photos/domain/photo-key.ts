import { EXTENSIONS, formatOfExtension, ImageFormat, MEDIA_TYPES } from './image-format';

/**
 * Where a variant is stored and served from: the SHA-256 of its bytes in lowercase hex, a dot,
 * and its format's extension (`…e3b0c442.jpg`). The same bytes always have the same key, and
 * other bytes never do: a key's content never changes, so it may be cached forever.
 */
export type PhotoKey = string;

const KEY = /^([0-9a-f]{64})\.([a-z]{3,4})$/;

/** The pattern a key matches, for the edge's validation. */
export const PHOTO_KEY_PATTERN = /^[0-9a-f]{64}\.(jpg|png|webp)$/;

export function photoKeyOf(sha256Hex: string, format: ImageFormat): PhotoKey {
  if (!/^[0-9a-f]{64}$/.test(sha256Hex)) {
    throw new Error(`A photo key needs a SHA-256 in lowercase hex, not "${sha256Hex}".`);
  }
  return `${sha256Hex}.${EXTENSIONS[format]}`;
}

/** The hash and format of a key, or null when the text is no key. */
export function parsePhotoKey(text: string): { hash: string; format: ImageFormat } | null {
  const match = KEY.exec(text);
  const format = match && formatOfExtension(match[2]);
  return format ? { hash: match![1], format } : null;
}

/** The media type of the bytes under a key. */
export function mediaTypeOfKey(key: PhotoKey): string {
  const parsed = parsePhotoKey(key);
  if (!parsed) throw new Error(`"${key}" is no photo key.`);
  return MEDIA_TYPES[parsed.format];
}
