import { distinctWidths, variantFormat, variantWidths } from './photo-variants';

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
