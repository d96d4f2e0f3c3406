/** A place on the Earth, in decimal degrees (WGS 84). */
export interface GeoPoint {
  readonly lat: number;
  readonly lon: number;
}

/** How far a `near` search reaches, in kilometres: at least, at most, and when not given. */
export const SEARCH_RADIUS_KM = { min: 1, max: 500, default: 100 } as const;

export function isLatitude(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= -90 && value <= 90;
}

export function isLongitude(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= -180 && value <= 180;
}

const NEAR = /^(-?\d{1,3}(?:\.\d{1,10})?),(-?\d{1,3}(?:\.\d{1,10})?)$/;

/**
 * A `near` query value, `lat,lon` in decimal degrees (`52.52,13.405`), or null when it is not one:
 * two plain decimals with a comma and nothing else (no spaces, exponents or signs but a minus),
 * the latitude from -90 to 90, the longitude from -180 to 180.
 */
export function parseNear(text: string): GeoPoint | null {
  const match = NEAR.exec(text);
  if (!match) return null;
  const [lat, lon] = [Number(match[1]), Number(match[2])];
  return isLatitude(lat) && isLongitude(lon) ? { lat, lon } : null;
}

/** The distance a search answers with: kilometres, to the nearest 100 m. */
export const roundKm = (km: number) => Math.round(km * 10) / 10;
