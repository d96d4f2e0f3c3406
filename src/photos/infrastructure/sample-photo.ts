import sharp from 'sharp';

/**
 * A photo-like JPEG of `width` × `height`, the same bytes on every call (for one sharp version):
 * the benchmark's upload (12 megapixels: 4000 × 3000) and the measure of what the pipeline costs
 * (scripts/photo-pipeline-cpu.mjs). Smooth light over the frame, a few shapes and a grain of noise
 * from a seeded generator, at camera quality: flat colour would flatter the encoder, pure noise
 * wrong it.
 */
export async function samplePhotoJpeg(width = 4000, height = 3000): Promise<Buffer> {
  const pixels = new Uint8Array(width * height * 3);
  const [cx, cy, r2] = [width * 0.6, height * 0.45, (height * 0.25) ** 2];
  // Operators only, no calls, in the loop: it runs 12 million times (slowly under Jest's VM).
  let seed = 0x2f6b1d3a;
  let i = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++, i += 3) {
      // xorshift32: a little grain, the same every time.
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      const grain = (seed & 31) - 16;
      const inDisc = (x - cx) * (x - cx) + (y - cy) * (y - cy) < r2;
      const r = (inDisc ? 150 : 90) + (x * 100) / width + grain;
      const g = (inDisc ? 110 : 120) + (y * 80) / height + grain;
      const b = ((x + y) & 255) < 128 ? 60 + grain : 90 + grain;
      pixels[i] = r < 0 ? 0 : r > 255 ? 255 : r;
      pixels[i + 1] = g < 0 ? 0 : g > 255 ? 255 : g;
      pixels[i + 2] = b < 0 ? 0 : b;
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}
