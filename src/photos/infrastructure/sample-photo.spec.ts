import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { samplePhotoJpeg } from './sample-photo';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('samplePhotoJpeg', () => {
  // Encoding 12 megapixels takes about 2 s of CPU: beside another worker, past Jest's default 5 s.
  it('is a 12-megapixel JPEG by default', async () => {
    expect(await sharp(await samplePhotoJpeg()).metadata()).toMatchObject({
      format: 'jpeg',
      width: 4000,
      height: 3000,
    });
  }, 30_000);

  it('is the same bytes on every call', async () => {
    expect(sha256(await samplePhotoJpeg(400, 300))).toBe(sha256(await samplePhotoJpeg(400, 300)));
  });
});
