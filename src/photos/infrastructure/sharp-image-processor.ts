import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import type sharp from 'sharp';
import { AppConfig } from '../../platform/config/app-config';
import { ImageProcessor, ImageVariant, ProcessedImage } from '../application/image-processor';
import { ImageFormat } from '../domain/image-format';
import { checkDimensions, MAX_IMAGE_PIXELS } from '../domain/image-rules';
import { photoKeyOf } from '../domain/photo-key';
import {
  distinctSizes,
  PHOTO_SIZES,
  PhotoSize,
  variantFormat,
  variantSizes,
  VariantSize,
} from '../domain/photo-variants';
import {
  ImageProcessingBusyError,
  UndecodableImageError,
  UnsupportedImageError,
} from '../domain/photo.errors';
import { ProcessingSlots } from './processing-slots';
import { sharpLibrary } from './sharp-library';

/** The quality of the JPEG and WebP variants: no visible loss at the sizes served. */
const QUALITY = 80;

/** Seconds a client refused for a full queue waits: about as long as a few images take. */
const BUSY_RETRY_AFTER_SECONDS = 1;

/** The pixels of the `full` variant, decoded once: every other variant is made from them. */
interface Pixels {
  data: Buffer;
  info: sharp.OutputInfo;
}

/**
 * The image pipeline on sharp (libvips), whose work runs on libuv's threadpool, off the event
 * loop. At most PHOTO_CONCURRENCY images are processed at once on an instance, each on one thread;
 * PHOTO_QUEUE_LENGTH more wait, and beyond that an upload is refused (503, Retry-After) rather
 * than held (docs/adr/0043).
 */
@Injectable()
export class SharpImageProcessor extends ImageProcessor {
  private readonly slots: ProcessingSlots;

  constructor(config: AppConfig) {
    super();
    const { concurrency, queueLength } = config.photos;
    this.slots = new ProcessingSlots(
      concurrency,
      queueLength,
      () => new ImageProcessingBusyError(BUSY_RETRY_AFTER_SECONDS),
    );
  }

  async process(bytes: Uint8Array, format: ImageFormat): Promise<ProcessedImage> {
    // The header alone, before anything waits for a slot: a decompression bomb is refused at once.
    // No pixel limit on reading the header: sharp's own (268 megapixels) would refuse a larger
    // declaration as unreadable; checkDimensions refuses it naming the rule it breaks.
    const header = await sharpLibrary()(bytes, { limitInputPixels: false })
      .metadata()
      .catch(() => {
        throw new UndecodableImageError();
      });
    if (header.format !== format) {
      throw new UnsupportedImageError(`The body is not a ${format} image throughout.`);
    }
    // Every side and the pixels from the header alone: nothing is decoded for an image refused.
    checkDimensions(header.width, header.height);
    return this.slots.run(() => this.variants(bytes, header));
  }

  private async variants(bytes: Uint8Array, header: sharp.Metadata): Promise<ProcessedImage> {
    const wanted = variantSizes(header.autoOrient.width, header.autoOrient.height);
    const format = variantFormat(header.hasAlpha);
    const full = await this.decode(bytes, wanted.full);
    // One image at a time on its slot's thread: the sizes one after the other, widest first.
    const byWidth = new Map<number, ImageVariant>();
    for (const size of distinctSizes(wanted)) {
      byWidth.set(size.width, await this.encode(full, size, format));
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
  private async decode(bytes: Uint8Array, { width, height }: VariantSize): Promise<Pixels> {
    try {
      return await sharpLibrary()(bytes, {
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

  private async encode(
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
}
