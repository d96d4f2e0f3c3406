import { AppConfig } from '../../platform/config/app-config';
import { Photo } from '../domain/photo';
import { PHOTO_SIZES, PhotoSize } from '../domain/photo-variants';

/**
 * Where clients fetch the photos' images: `PHOTO_PUBLIC_BASE_URL` (S3 behind a CDN, or a public
 * bucket) when set, else the service's own `${PUBLIC_BASE_URL}/photos`. A key is appended to it.
 */
export function photoImagesBase({ http, photos }: AppConfig): string {
  return photos.publicBaseUrl ?? `${http.publicBaseUrl}/photos`;
}

/** Each size's absolute URL: the base and the key of that size's image. */
export function photoUrls(photo: Pick<Photo, 'variants'>, base: string): Record<PhotoSize, string> {
  return Object.fromEntries(
    PHOTO_SIZES.map((size) => [size, `${base}/${photo.variants[size]}`]),
  ) as Record<PhotoSize, string>;
}
