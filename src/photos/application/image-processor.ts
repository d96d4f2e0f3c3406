import { ImageFormat } from '../domain/image-format';
import { PhotoKey } from '../domain/photo-key';
import { PHOTO_SIZES, PhotoSize } from '../domain/photo-variants';

/** One variant of an image: its bytes, their key, its size in pixels. */
export interface ImageVariant {
  readonly key: PhotoKey;
  readonly bytes: Uint8Array;
  readonly width: number;
  readonly height: number;
}

/**
 * An upload's bytes as the service holds them: in a file, until the upload is answered, and the
 * first of them in memory (at least the magic bytes; the whole header of nearly every image).
 */
export interface ImageFile {
  readonly path: string;
  readonly size: number;
  readonly head: Uint8Array;
}

/** An upload turned into the variants it is served as. */
export interface ProcessedImage {
  /** The size of the `full` variant: the image as displayed, orientation applied. */
  readonly width: number;
  readonly height: number;
  /** Each size's variant (domain/photo-variants); sizes of one width share one variant. */
  readonly sizes: Readonly<Record<PhotoSize, ImageVariant>>;
}

/**
 * Port: turns an upload into its variants, off the event loop, outside the service's memory and at
 * most a bounded number at a time on an instance, each `queue` (an organisation) served in turn. The header's dimensions are checked before a pixel is decoded
 * (checkDimensions: ImageSideOutOfRangeError, ImageTooManyPixelsError); then the image is decoded to
 * its end (else UndecodableImageError), its orientation applied, its metadata dropped, and each
 * size of variantSizes written in the format
 * of variantFormat. With as many images of the queue, or in all, in hand as it takes, it refuses at
 * once (ImageProcessingBusyError); when the process decoding it dies, ImageWorkerLostError.
 */
export abstract class ImageProcessor {
  abstract process(image: ImageFile, format: ImageFormat, queue: string): Promise<ProcessedImage>;
}

/** The distinct variants of an image, each once, whatever sizes share it. */
export function distinctVariants(image: ProcessedImage): ImageVariant[] {
  return [
    ...new Map(PHOTO_SIZES.map((size) => [image.sizes[size].key, image.sizes[size]])).values(),
  ];
}

/** The key of each size's variant, as a photo records them. */
export function variantKeys(image: ProcessedImage): Record<PhotoSize, PhotoKey> {
  return {
    small: image.sizes.small.key,
    medium: image.sizes.medium.key,
    large: image.sizes.large.key,
    full: image.sizes.full.key,
  };
}
