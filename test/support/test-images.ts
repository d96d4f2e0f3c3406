import sharp from 'sharp';
import { mkdtempSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { ImageFile } from '../../src/photos/application/image-processor';
import { IMAGE_HEAD_BYTES } from '../../src/platform/http/request/json-body';

/**
 * Test images, generated with sharp when a test needs them: no image is committed. Each is small
 * but for the bomb, whose file is small and whose pixels are not.
 */

type Colour = { r: number; g: number; b: number; alpha?: number };

const RED = { r: 220, g: 20, b: 20 };
const BLUE = { r: 20, g: 20, b: 220 };

/** A plain image of one colour. */
export function plain(
  width: number,
  height: number,
  background: Colour = RED,
  channels: 3 | 4 = 3,
) {
  return sharp({ create: { width, height, channels, background } });
}

/**
 * A JPEG as a phone writes it: stored 40 × 20 px (red left half, blue right half) with EXIF
 * orientation 6 (display it turned 90° clockwise: 20 × 40, red on top), a camera make, GPS
 * coordinates, and a Display P3 colour profile.
 */
export async function phoneJpeg(): Promise<Buffer> {
  const halves = await plain(40, 20, BLUE)
    .composite([{ input: await plain(20, 20, RED).png().toBuffer(), left: 0, top: 0 }])
    .png()
    .toBuffer();
  return sharp(halves)
    .withIccProfile('p3')
    .withExif({
      IFD0: { Make: 'PhoneCam', Model: 'Pocket 9' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '51/1 30/1 2634/100',
        GPSLongitudeRef: 'W',
        GPSLongitude: '0/1 7/1 3966/100',
      },
    })
    .withMetadata({ orientation: 6 })
    .jpeg({ quality: 95 })
    .toBuffer();
}

/** A PNG with transparency: a red square, half see-through. */
export const pngWithAlpha = (width = 64, height = 48) =>
  plain(width, height, { ...RED, alpha: 0.5 }, 4)
    .png()
    .toBuffer();

/** The first part of an image: the rest never arrived. */
export const truncated = (image: Buffer, keep = 0.6) =>
  image.subarray(0, Math.floor(image.length * keep));

/**
 * A small PNG whose header declares `width` × `height`: what a decompression bomb's header says,
 * without its data (decoding it would fail as corrupt; only a look at the header refuses it as too
 * large). The IHDR chunk is rewritten with its checksum.
 */
export async function pngDeclaring(width: number, height: number): Promise<Buffer> {
  const png = Buffer.from(await plain(8, 8).png().toBuffer());
  // Signature (8), IHDR length (4) and type (4), then width and height.
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return png;
}

/** A real decompression bomb: 8,000 × 5,125 px (41 megapixels, 123 MB decoded) in about 120 KB. */
export const pngBomb = () =>
  plain(8000, 5125, { r: 0, g: 0, b: 0 }).png({ compressionLevel: 9 }).toBuffer();

/**
 * A small lossless WebP whose header declares `width` × `height` (each 1 to 16,384, all its
 * VP8L header can say) without the data: as pngDeclaring, only a look at the header can refuse it.
 * The VP8L header is the signature byte 0x2f, then 14 bits of width − 1 and 14 of height − 1,
 * little-endian, before the alpha bit and the version, which are kept.
 */
export async function webpDeclaring(width: number, height: number): Promise<Buffer> {
  const webp = Buffer.from(await plain(8, 8).webp({ lossless: true }).toBuffer());
  // RIFF header (12), chunk type VP8L (4) and length (4), the signature (1), then the sizes.
  if (webp.toString('latin1', 12, 16) !== 'VP8L' || webp[20] !== 0x2f) {
    throw new Error('sharp wrote no simple lossless WebP');
  }
  const bits = webp.readUInt32LE(21);
  const sizes = ((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14);
  webp.writeUInt32LE((sizes | (bits & 0xf000_0000)) >>> 0, 21);
  return webp;
}

let directory: string | undefined;
let files = 0;

/**
 * The bytes in a file, as the service's spool hands an upload over: its path, its size and its
 * first `headBytes` in memory. The files go with the test process.
 */
export async function inFile(bytes: Uint8Array, headBytes = IMAGE_HEAD_BYTES): Promise<ImageFile> {
  if (directory === undefined) {
    const made = mkdtempSync(join(tmpdir(), 'test-images-'));
    process.once('exit', () => rmSync(made, { recursive: true, force: true }));
    directory = made;
  }
  const path = join(directory, `${++files}.image`);
  await writeFile(path, bytes);
  return { path, size: bytes.length, head: bytes.subarray(0, headBytes) };
}
