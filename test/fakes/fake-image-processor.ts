import { createHash } from 'node:crypto';
import {
  ImageFile,
  ImageProcessor,
  ImageVariant,
  ProcessedImage,
} from '../../src/photos/application/image-processor';
import { ImageFormat } from '../../src/photos/domain/image-format';
import { photoKeyOf } from '../../src/photos/domain/photo-key';
import { PHOTO_SIZES, PhotoSize, variantWidths } from '../../src/photos/domain/photo-variants';

/**
 * An image processor that decodes nothing, for unit tests of the use cases: every upload is an
 * image of `size`, its variants bytes naming the upload (its first bytes: the tests' uploads are
 * all head) and their width. `failure`, when set, is
 * thrown instead; `during` runs while the image is "processed" (another request coming in).
 */
export class FakeImageProcessor extends ImageProcessor {
  size = { width: 1200, height: 800 };
  failure?: Error;
  during?: () => Promise<void>;
  processed = 0;

  async process(image: ImageFile, format: ImageFormat): Promise<ProcessedImage> {
    if (this.failure) throw this.failure;
    await this.during?.();
    this.processed++;
    const widths = variantWidths(this.size.width, this.size.height);
    const variant = (width: number): ImageVariant => {
      const content = Buffer.from(`${format}:${Buffer.from(image.head).toString('hex')}:${width}`);
      return {
        key: photoKeyOf(createHash('sha256').update(content).digest('hex'), 'jpeg'),
        bytes: content,
        width,
        height: Math.round((this.size.height * width) / this.size.width),
      };
    };
    const sizes = Object.fromEntries(
      PHOTO_SIZES.map((size) => [size, variant(widths[size])]),
    ) as Record<PhotoSize, ImageVariant>;
    return { width: sizes.full.width, height: sizes.full.height, sizes };
  }
}
