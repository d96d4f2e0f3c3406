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

/**
 * The width of each size for an image `width` × `height` px as displayed (orientation applied).
 * `full` keeps the proportions within FULL_MAX_SIDE on both sides, never enlarged; each other size
 * is its width, or `full`'s when that is narrower. So a 250 px wide original has two distinct
 * variants, 100 and 250 px wide: `medium`, `large` and `full` are one and the same image (and URL).
 */
export function variantWidths(width: number, height: number): Record<PhotoSize, number> {
  const longer = Math.max(width, height);
  // Rounded down, so that the height the resize derives from it stays within the bound too.
  const full =
    longer <= FULL_MAX_SIDE ? width : Math.max(1, Math.floor((width * FULL_MAX_SIDE) / longer));
  return {
    small: Math.min(SIZE_WIDTHS.small, full),
    medium: Math.min(SIZE_WIDTHS.medium, full),
    large: Math.min(SIZE_WIDTHS.large, full),
    full,
  };
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
