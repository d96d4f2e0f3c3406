/**
 * The sizes every photo is served in, by their width in pixels: `small`, `medium` and `large` at
 * 100, 300 and 600 px wide, and `full`, the original scaled to at most 2,048 px on its longer side.
 * No variant is ever larger than the original, nor wider than `full`.
 */
export const PHOTO_SIZES = ['small', 'medium', 'large', 'full'] as const;

export type PhotoSize = (typeof PHOTO_SIZES)[number];

export const SIZE_WIDTHS: Record<Exclude<PhotoSize, 'full'>, number> = {
  small: 100,
  medium: 300,
  large: 600,
};

/** The longest side `full` may have. */
export const FULL_MAX_SIDE = 2048;

/** The size of one variant in pixels. */
export interface VariantSize {
  readonly width: number;
  readonly height: number;
}

/**
 * The size of each variant of an image `width` × `height` px as displayed (orientation applied).
 * `full` keeps the proportions within FULL_MAX_SIDE on both sides, never enlarged; each other size
 * is its width, or `full`'s when that is narrower, at `full`'s proportions. So a 250 px wide
 * original has two distinct variants, 100 and 250 px wide: `medium`, `large` and `full` are one
 * and the same image (and URL).
 *
 * Both sides are given here, not only the width: a side of at least 1 px is all a resize can make,
 * and a width rounded up to that 1 px while the resize derives the height from it left a tall
 * image's `full` 1 × 8,192 (issue 44). Each side is bounded on its own, whatever the aspect ratio.
 */
export function variantSizes(width: number, height: number): Record<PhotoSize, VariantSize> {
  const longer = Math.max(width, height);
  // Exact for the longer side (n × 2048 / n is exact in floating point); rounded down for the
  // other, so that it stays within the bound and the proportions as near as whole pixels allow.
  const scale = (side: number) =>
    longer <= FULL_MAX_SIDE ? side : Math.max(1, Math.floor((side * FULL_MAX_SIDE) / longer));
  const full = { width: scale(width), height: scale(height) };
  const narrowed = (sizeWidth: number): VariantSize => {
    if (sizeWidth >= full.width) return full;
    return {
      width: sizeWidth,
      height: Math.min(
        full.height,
        Math.max(1, Math.round((full.height * sizeWidth) / full.width)),
      ),
    };
  };
  return {
    small: narrowed(SIZE_WIDTHS.small),
    medium: narrowed(SIZE_WIDTHS.medium),
    large: narrowed(SIZE_WIDTHS.large),
    full,
  };
}

/** The width of each size (variantSizes): a variant's height follows from its width. */
export function variantWidths(width: number, height: number): Record<PhotoSize, number> {
  const sizes = variantSizes(width, height);
  return {
    small: sizes.small.width,
    medium: sizes.medium.width,
    large: sizes.large.width,
    full: sizes.full.width,
  };
}

/** The distinct sizes to produce, widest first: one variant each. */
export function distinctSizes(sizes: Record<PhotoSize, VariantSize>): VariantSize[] {
  const byWidth = new Map(PHOTO_SIZES.map((size) => [sizes[size].width, sizes[size]]));
  return [...byWidth.values()].sort((a, b) => b.width - a.width);
}

/** The distinct widths to produce, widest first: one variant each. */
export function distinctWidths(widths: Record<PhotoSize, number>): number[] {
  return [...new Set(PHOTO_SIZES.map((size) => widths[size]))].sort((a, b) => b - a);
}

/**
 * The format the variants are written in: JPEG for opaque images (every browser, the fastest to
 * encode), WebP for images with an alpha channel, which JPEG cannot carry.
 */
export function variantFormat(hasAlpha: boolean): 'jpeg' | 'webp' {
  return hasAlpha ? 'webp' : 'jpeg';
}
