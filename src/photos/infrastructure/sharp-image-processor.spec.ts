import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { AppConfig } from '../../platform/config/app-config';
import {
  ImageProcessingBusyError,
  ImageSideOutOfRangeError,
  ImageTooManyPixelsError,
  UndecodableImageError,
  UnsupportedImageError,
} from '../domain/photo.errors';
import { PHOTO_SIZES } from '../domain/photo-variants';
import { distinctVariants, ProcessedImage } from '../application/image-processor';
import {
  phoneJpeg,
  plain,
  pngBomb,
  pngDeclaring,
  pngWithAlpha,
  inFile,
  truncated,
  webpDeclaring,
} from '../../../test/support/test-images';
import { ImageFormat } from '../domain/image-format';
import { SharpImageProcessor } from './sharp-image-processor';

const processorWith = (concurrency = 2, queueLength = 8, queuePerOrganization = 4) =>
  new SharpImageProcessor({
    photos: { concurrency, queueLength, queuePerOrganization, workers: 1, jobSeconds: 60 },
  } as AppConfig);

/** The image as the service hands it over: in a file of its spool, its first bytes in memory. */
const processIn = async (
  processor: SharpImageProcessor,
  bytes: Uint8Array,
  format: ImageFormat,
  queue: string,
) => processor.process(await inFile(bytes), format, queue);

const sizesOf = (image: ProcessedImage) =>
  PHOTO_SIZES.map((size) => [size, image.sizes[size].width, image.sizes[size].height]);

// The real pipeline: every image goes to a forked worker process (image-worker.ts from the sources).

// Each test starts real worker processes, which compile the TypeScript sources they run and
// decode images: seconds on a busy machine, past Jest's default 5 s.
jest.setTimeout(30_000);
describe('SharpImageProcessor', () => {
  const processor = processorWith();
  afterAll(() => processor.onApplicationShutdown());

  /**
   * Refused in the service, from the header: no worker (where alone libvips decodes) is asked. A
   * timing would say the same only on an idle machine (it failed at 125 ms of 100 on a busy one).
   */
  const expectRefusedBeforeDecoding = async (
    bytes: Uint8Array,
    format: ImageFormat,
    refusal: new (...args: never[]) => Error,
  ) => {
    const variants = jest.spyOn(processor.workers, 'variants');
    try {
      await expect(processIn(processor, bytes, format, 'organization:1')).rejects.toThrow(refusal);
      expect(variants).not.toHaveBeenCalled();
    } finally {
      variants.mockRestore();
    }
  };

  it('writes the four widths of a photo as JPEG, each under the SHA-256 of its bytes', async () => {
    const image = await processIn(
      processor,
      await plain(1200, 800).jpeg().toBuffer(),
      'jpeg',
      'organization:1',
    );
    expect(sizesOf(image)).toEqual([
      ['small', 100, 67],
      ['medium', 300, 200],
      ['large', 600, 400],
      ['full', 1200, 800],
    ]);
    expect(image).toMatchObject({ width: 1200, height: 800 });
    for (const variant of distinctVariants(image)) {
      const hash = createHash('sha256').update(variant.bytes).digest('hex');
      expect(variant.key).toBe(`${hash}.jpg`);
      expect(await sharp(variant.bytes).metadata()).toMatchObject({
        format: 'jpeg',
        width: variant.width,
        height: variant.height,
      });
    }
    expect(distinctVariants(image)).toHaveLength(4);
  });

  it('never enlarges: a 250 px original gives a 100 px variant and one of 250 px for the rest', async () => {
    const image = await processIn(
      processor,
      await plain(250, 250).png().toBuffer(),
      'png',
      'organization:1',
    );
    expect(sizesOf(image)).toEqual([
      ['small', 100, 100],
      ['medium', 250, 250],
      ['large', 250, 250],
      ['full', 250, 250],
    ]);
    expect(distinctVariants(image)).toHaveLength(2);
    expect(image.sizes.full.key).toBe(image.sizes.medium.key);
  });

  it('keeps full within 2,048 px on its longer side', async () => {
    const image = await processIn(
      processor,
      await plain(1000, 4000).webp().toBuffer(),
      'webp',
      'organization:1',
    );
    expect(sizesOf(image)).toEqual([
      ['small', 100, 400],
      ['medium', 300, 1200],
      ['large', 512, 2048],
      ['full', 512, 2048],
    ]);
  });

  it.each([
    // The tallest and the widest shapes taken: 1,024 to 1. A width rounded up to 1 px with the
    // height left to follow it made `full` of a 2 × 16,383 WebP 1 × 8,192 (issue 44).
    ['tall WebP', () => plain(16, 16_383).webp().toBuffer(), 'webp', [2, 2048]],
    ['wide PNG', () => plain(16_384, 16).png().toBuffer(), 'png', [2048, 2]],
    ['tall JPEG', () => plain(17, 16_384).jpeg().toBuffer(), 'jpeg', [2, 2048]],
  ] as const)(
    'keeps every size of a %s within 2,048 px on both sides',
    async (_, make, format, full) => {
      const image = await processIn(processor, await make(), format, 'organization:1');
      expect([image.width, image.height]).toEqual(full);
      for (const variant of distinctVariants(image)) {
        const { width, height } = await sharp(variant.bytes).metadata();
        expect([width, height]).toEqual([variant.width, variant.height]);
        expect(Math.max(width, height)).toBeLessThanOrEqual(2048);
      }
    },
  );

  it.each([
    ['a 1 × 66,000 PNG', () => pngDeclaring(1, 66_000), 'png'],
    ['a 1 × 39,000,000 PNG', () => pngDeclaring(1, 39_000_000), 'png'],
    ['a 4 × 20,000 PNG', () => pngDeclaring(4, 20_000), 'png'],
    ['a 2 × 16,383 WebP', () => webpDeclaring(2, 16_383), 'webp'],
    ['a 15 × 15 PNG', () => pngDeclaring(15, 15), 'png'],
    ['a 16,385 × 16 PNG', () => pngDeclaring(16_385, 16), 'png'],
  ] as const)('refuses %s from its header, before decoding a pixel', async (_, make, format) => {
    await expectRefusedBeforeDecoding(await make(), format, ImageSideOutOfRangeError);
  });

  it('refuses 16,384 × 16,384 px (268 megapixels) from a PNG header, however square', async () => {
    await expect(
      processIn(processor, await pngDeclaring(16_384, 16_384), 'png', 'organization:1'),
    ).rejects.toThrow(new ImageTooManyPixelsError(16_384, 16_384, 40_000_000));
  });

  it('turns the pixels upright by the orientation tag, and keeps no EXIF, GPS or profile', async () => {
    const photo = await phoneJpeg();
    const before = await sharp(photo).metadata();
    expect(before).toMatchObject({ width: 40, height: 20, orientation: 6 });
    expect(before.exif?.toString('latin1')).toContain('PhoneCam');
    expect(before.icc).toBeDefined();

    const image = await processIn(processor, photo, 'jpeg', 'organization:1');
    expect(image).toMatchObject({ width: 20, height: 40 });
    const full = image.sizes.full.bytes;
    const after = await sharp(full).metadata();
    expect(after).toMatchObject({ width: 20, height: 40, space: 'srgb' });
    for (const variant of distinctVariants(image)) {
      const metadata = await sharp(variant.bytes).metadata();
      expect([
        metadata.exif,
        metadata.icc,
        metadata.xmp,
        metadata.iptc,
        metadata.orientation,
      ]).toEqual([undefined, undefined, undefined, undefined, undefined]);
      expect(Buffer.from(variant.bytes).toString('latin1')).not.toMatch(/PhoneCam|GPS/);
    }
    // Turned clockwise: the left half, red, is now on top; the blue right half below.
    const { data, info } = await sharp(full).raw().toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => [
      ...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3),
    ];
    expect(pixel(10, 5)[0]).toBeGreaterThan(150);
    expect(pixel(10, 5)[2]).toBeLessThan(100);
    expect(pixel(10, 35)[2]).toBeGreaterThan(150);
    expect(pixel(10, 35)[0]).toBeLessThan(100);
  });

  it('reads a header that runs past the bytes in memory from the file (a JPEG’s metadata comes first)', async () => {
    const photo = await phoneJpeg();
    // The first 64 bytes hold the JPEG's start, not its size: that is after its EXIF and profile.
    const image = await processor.process(await inFile(photo, 64), 'jpeg', 'organization:1');
    expect(image).toMatchObject({ width: 20, height: 40 });
  });

  it('writes an image with an alpha channel as WebP, keeping its transparency', async () => {
    const image = await processIn(processor, await pngWithAlpha(), 'png', 'organization:1');
    for (const variant of distinctVariants(image)) {
      expect(variant.key).toMatch(/\.webp$/);
      expect(await sharp(variant.bytes).metadata()).toMatchObject({
        format: 'webp',
        hasAlpha: true,
      });
    }
  });

  it.each([
    ['greyscale JPEG', () => plain(300, 200).greyscale().jpeg().toBuffer(), 'jpeg'],
    ['CMYK JPEG', () => plain(300, 200).toColourspace('cmyk').jpeg().toBuffer(), 'jpeg'],
    ['16-bit PNG', () => plain(300, 200).toColourspace('rgb16').png().toBuffer(), 'png'],
    ['palette PNG', () => plain(300, 200).png({ palette: true }).toBuffer(), 'png'],
  ] as const)('writes a %s as 8-bit sRGB', async (_, make, format) => {
    const image = await processIn(processor, await make(), format, 'organization:1');
    for (const variant of distinctVariants(image)) {
      expect(await sharp(variant.bytes).metadata()).toMatchObject({
        space: 'srgb',
        depth: 'uchar',
        channels: 3,
      });
    }
  });

  it.each([
    ['jpeg', () => plain(300, 200).jpeg().toBuffer()],
    ['png', () => plain(300, 200).png().toBuffer()],
    ['webp', () => plain(300, 200).webp().toBuffer()],
  ] as const)('refuses a truncated %s as not decoding', async (format, make) => {
    await expect(
      processIn(processor, truncated(await make()), format, 'organization:1'),
    ).rejects.toThrow(UndecodableImageError);
  });

  it('refuses bytes that are not what their format says', async () => {
    await expect(
      processIn(processor, await plain(30, 20).jpeg().toBuffer(), 'png', 'organization:1'),
    ).rejects.toThrow(UnsupportedImageError);
  });

  it('refuses a header declaring more than 40 megapixels before decoding a pixel', async () => {
    // Its data is that of an 8 × 8 image: decoding would fail as corrupt, not as too large.
    await expect(
      processIn(processor, await pngDeclaring(8000, 5001), 'png', 'organization:1'),
    ).rejects.toThrow(new ImageTooManyPixelsError(8000, 5001, 40_000_000));
    await expect(
      processIn(processor, await pngDeclaring(8000, 5000), 'png', 'organization:1'),
    ).rejects.toThrow(UndecodableImageError);
  });

  it('refuses a decompression bomb at once, without decoding its 123 MB of pixels', async () => {
    const bomb = await pngBomb();
    expect(bomb.length).toBeLessThan(200_000);
    await expectRefusedBeforeDecoding(bomb, 'png', ImageTooManyPixelsError);
  });

  it("queues PHOTO_QUEUE_PER_ORGANIZATION of one organisation's images and refuses the rest, while another's still wait their turn", async () => {
    const busy = processorWith(1, 2, 1);
    try {
      const jpeg = await inFile(await plain(2000, 1500).jpeg().toBuffer());
      const other = await inFile(await plain(400, 300).jpeg().toBuffer());
      const mine = [1, 2, 3].map(() => busy.process(jpeg, 'jpeg', 'organization:1'));
      // The others' headers are read while the first's wait: one of the three is refused.
      const theirs = busy.process(other, 'jpeg', 'organization:2');
      const outcomes = await Promise.allSettled(mine);
      const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
      expect(refused).toHaveLength(1);
      expect(refused[0].reason).toBeInstanceOf(ImageProcessingBusyError);
      expect(refused[0].reason.retryAfterSeconds).toBe(1);
      expect((await theirs).width).toBe(400);
      expect(busy.load).toEqual({ running: 0, waiting: 0 });
    } finally {
      await busy.onApplicationShutdown();
    }
  });
});
