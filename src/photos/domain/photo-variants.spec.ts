import {
  distinctSizes,
  distinctWidths,
  FULL_MAX_SIDE,
  PHOTO_SIZES,
  variantFormat,
  variantSizes,
  variantWidths,
} from './photo-variants';

describe('the photo variants', () => {
  it.each([
    // width, height: small, medium, large, full
    [4000, 3000, [100, 300, 600, 2048]],
    [3000, 4000, [100, 300, 600, 1536]],
    [2048, 1000, [100, 300, 600, 2048]],
    [1200, 800, [100, 300, 600, 1200]],
    [600, 600, [100, 300, 600, 600]],
    [250, 250, [100, 250, 250, 250]],
    [80, 60, [80, 80, 80, 80]],
    [1, 1, [1, 1, 1, 1]],
    [1000, 40_000, [51, 51, 51, 51]],
    [40_000, 1000, [100, 300, 600, 2048]],
  ])('gives a %i × %i image widths %j, never enlarged', (width, height, expected) => {
    const widths = variantWidths(width, height);
    expect([widths.small, widths.medium, widths.large, widths.full]).toEqual(expected);
  });

  it('keeps full within 2,048 px on both sides, whatever the rounding', () => {
    for (const [width, height] of [
      [3001, 4003],
      [1999, 7777],
      [2049, 2049],
      [4097, 3],
    ]) {
      const full = variantWidths(width, height).full;
      expect(full).toBeLessThanOrEqual(2048);
      expect(Math.round((height * full) / width)).toBeLessThanOrEqual(2048);
    }
  });

  it.each([
    // width, height: full (the shorter side rounded down, never under 1 px)
    [2, 16_383, [1, 2048]],
    [16, 16_384, [2, 2048]],
    [16_384, 16, [2048, 2]],
    [17, 16_384, [2, 2048]],
    [1, 66_000, [1, 2048]],
    [1, 39_000_000, [1, 2048]],
    [2441, 16_384, [305, 2048]],
  ])('bounds both sides of a %i × %i image: full %j', (width, height, expected) => {
    const { full } = variantSizes(width, height);
    expect([full.width, full.height]).toEqual(expected);
  });

  it('keeps every size of any shape within 2,048 px on both sides and at least 1 px, none larger than full', () => {
    // Issue 44: a width rounded up to 1 px with the height left to follow made a 1 × 8,192 `full`.
    const sides = [1, 2, 3, 15, 16, 17, 99, 100, 101, 250, 2047, 2048, 2049, 4097, 16_383, 16_384];
    for (const width of sides) {
      for (const height of sides) {
        const sizes = variantSizes(width, height);
        for (const size of PHOTO_SIZES) {
          const { width: w, height: h } = sizes[size];
          expect([w, h].every((side) => Number.isInteger(side) && side >= 1)).toBe(true);
          expect(Math.max(w, h)).toBeLessThanOrEqual(FULL_MAX_SIDE);
          expect(w).toBeLessThanOrEqual(Math.min(width, sizes.full.width));
          expect(h).toBeLessThanOrEqual(Math.min(height, sizes.full.height));
        }
      }
    }
  });

  it('produces each distinct size once, widest first, one height to a width', () => {
    expect(distinctSizes(variantSizes(250, 250))).toEqual([
      { width: 250, height: 250 },
      { width: 100, height: 100 },
    ]);
    expect(distinctSizes(variantSizes(1200, 800))).toEqual([
      { width: 1200, height: 800 },
      { width: 600, height: 400 },
      { width: 300, height: 200 },
      { width: 100, height: 67 },
    ]);
  });

  it('produces each distinct width once, widest first', () => {
    expect(distinctWidths(variantWidths(250, 250))).toEqual([250, 100]);
    expect(distinctWidths(variantWidths(4000, 3000))).toEqual([2048, 600, 300, 100]);
    expect(distinctWidths(variantWidths(50, 50))).toEqual([50]);
  });

  it('writes opaque images as JPEG and those with alpha as WebP', () => {
    expect(variantFormat(false)).toBe('jpeg');
    expect(variantFormat(true)).toBe('webp');
  });
});
