/**
 * The image formats a photo may be uploaded in, each known by its magic number: the type of an
 * upload is judged from its bytes, and the Content-Type header must agree with them.
 */
export const IMAGE_FORMATS = ['jpeg', 'png', 'webp'] as const;

export type ImageFormat = (typeof IMAGE_FORMATS)[number];

export const MEDIA_TYPES: Record<ImageFormat, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
};

/** The extension a stored variant's key ends in. */
export const EXTENSIONS: Record<ImageFormat, string> = { jpeg: 'jpg', png: 'png', webp: 'webp' };

const startsWith = (bytes: Uint8Array, signature: readonly number[], at = 0) =>
  bytes.length >= at + signature.length && signature.every((byte, i) => bytes[at + i] === byte);

const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));

/**
 * The format the bytes are in, from their first bytes (JPEG: FF D8 FF; PNG: its 8-byte
 * signature; WebP: a RIFF container of form type WEBP), or null when they are none of the three.
 */
export function formatOfBytes(bytes: Uint8Array): ImageFormat | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'webp';
  return null;
}

/**
 * The format a Content-Type header names (`image/png`, any case, parameters ignored), or null
 * when it names another type or none.
 */
export function formatOfMediaType(contentType: string | undefined): ImageFormat | null {
  const essence = contentType?.split(';', 1)[0].trim().toLowerCase();
  return IMAGE_FORMATS.find((format) => MEDIA_TYPES[format] === essence) ?? null;
}

/** The format a key's extension names, or null. */
export function formatOfExtension(extension: string): ImageFormat | null {
  return IMAGE_FORMATS.find((format) => EXTENSIONS[format] === extension) ?? null;
}
