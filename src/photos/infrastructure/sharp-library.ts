import type Sharp from 'sharp';

let library: typeof Sharp | undefined;

/**
 * sharp (libvips), loaded when the first image is processed rather than when the service starts:
 * most instances start far more often than they take an upload, and loading it costs 100 ms or
 * more. Set once for this service: one libvips thread per image, so that PHOTO_CONCURRENCY bounds
 * the cores images take (on glibc sharp picks one already: more threads fragment its allocator);
 * no operation cache, as an upload is never processed twice and the cache would hold up to 50 MB
 * for nothing.
 */
export function sharpLibrary(): typeof Sharp {
  if (!library) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    library = require('sharp') as typeof Sharp;
    library.concurrency(1);
    library.cache(false);
  }
  return library;
}
