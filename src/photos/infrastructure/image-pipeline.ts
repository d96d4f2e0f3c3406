import { createHash } from 'node:crypto';
import type sharp from 'sharp';
import { ImageVariant, ProcessedImage } from '../application/image-processor';
import { MAX_IMAGE_PIXELS } from '../domain/image-rules';
import { photoKeyOf } from '../domain/photo-key';
import {
  distinctSizes,
  PHOTO_SIZES,
  PhotoSize,
  variantFormat,
  variantSizes,
  VariantSize,
} from '../domain/photo-variants';
import { UndecodableImageError } from '../domain/photo.errors';
import { ImageHeader } from './image-header';
import { sharpLibrary } from './sharp-library';

/** The quality of the JPEG and WebP variants: no visible loss at the sizes served. */
const QUALITY = 80;

/** An image to read: the path of its file (an upload, in the service's spool), or its bytes. */
export type ImageSource = string | Uint8Array;

/** What the variants are made from besides the bytes: the header, read and checked before. */
export interface CheckedHeader {
  /** The image's size as displayed, its orientation applied. */
  readonly width: number;
  readonly height: number;
  readonly hasAlpha: boolean;
}

/**
 * The header as libvips reads it, before it decodes a pixel: the same format and size as the
 * service read and checked (ImageHeader, checkDimensions), or the image is refused as
 * undecodable: two readers that disagree on a header are looking at a malformed one, and the
 * pixels libvips would decode are those it reads. No pixel limit on reading the header: decoding
 * has its own (decode).
 */
export async function checkedHeaderOf(
  image: ImageSource,
  judged: ImageHeader,
): Promise<CheckedHeader> {
  const header = await sharpLibrary()(image, { limitInputPixels: false })
    .metadata()
    .catch(() => {
      throw new UndecodableImageError();
    });
  const { format, width, height } = judged;
  if (header.format !== format || header.width !== width || header.height !== height) {
    throw new UndecodableImageError();
  }
  return {
    width: header.autoOrient.width,
    height: header.autoOrient.height,
    hasAlpha: header.hasAlpha,
  };
}

/** The pixels of the `full` variant, decoded once: every other variant is made from them. */
interface Pixels {
  data: Buffer;
  info: sharp.OutputInfo;
}

/**
 * The costly part of the pipeline (docs/adr/0043), run in an image worker process
 * (image-worker.ts): one full decode, then each size written, widest first.
 */
export async function variantsOf(
  image: ImageSource,
  header: CheckedHeader,
): Promise<ProcessedImage> {
  const wanted = variantSizes(header.width, header.height);
  const format = variantFormat(header.hasAlpha);
  const full = await decode(image, wanted.full);
  const byWidth = new Map<number, ImageVariant>();
  for (const size of distinctSizes(wanted)) {
    byWidth.set(size.width, await encode(full, size, format));
  }
  const sizes = Object.fromEntries(
    PHOTO_SIZES.map((size) => [size, byWidth.get(wanted[size].width)!]),
  ) as Record<PhotoSize, ImageVariant>;
  return { width: sizes.full.width, height: sizes.full.height, sizes };
}

/**
 * Decodes the whole image (a truncated or corrupt one fails: `failOn`), turned upright by its
 * orientation tag, at the size of `full` (both sides given: a width alone let the height follow
 * the proportions past 2,048 px), as 8-bit sRGB pixels (sharp's pipeline ends there
 * unless told otherwise: greyscale, CMYK, 16 bits and profiles such as Display P3 are converted),
 * and nothing else: EXIF, GPS, XMP and the ICC profile stay behind.
 */
async function decode(image: ImageSource, { width, height }: VariantSize): Promise<Pixels> {
  try {
    return await sharpLibrary()(image, {
      failOn: 'error',
      limitInputPixels: MAX_IMAGE_PIXELS,
      autoOrient: true,
    })
      .resize({ width, height, fit: 'fill', withoutEnlargement: true })
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch {
    throw new UndecodableImageError();
  }
}

async function encode(
  full: Pixels,
  { width, height }: VariantSize,
  format: 'jpeg' | 'webp',
): Promise<ImageVariant> {
  const { data, info } = full;
  let image = sharpLibrary()(data, {
    raw: { width: info.width, height: info.height, channels: info.channels },
  });
  if (width < info.width) image = image.resize({ width, height, fit: 'fill' });
  image = format === 'jpeg' ? image.jpeg({ quality: QUALITY }) : image.webp({ quality: QUALITY });
  const encoded = await image.toBuffer({ resolveWithObject: true });
  const hash = createHash('sha256').update(encoded.data).digest('hex');
  return {
    key: photoKeyOf(hash, format),
    bytes: encoded.data,
    width: encoded.info.width,
    height: encoded.info.height,
  };
}
