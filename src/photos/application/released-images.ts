import { PhotoKey } from '../domain/photo-key';

/** A key whose photo went (its pet was deleted): its bytes go too, unless a photo still names it. */
export interface ReleasedImage {
  readonly id: number;
  readonly key: PhotoKey;
}

/**
 * Port: the images whose photos went with their pet, recorded in the pet's deleting transaction
 * (docs/adr/0043, "Photos of a deleted pet"), oldest first, until they are forgotten. Several
 * instances may read the same ones: forgetting a release twice, or deleting bytes already gone,
 * is no error.
 */
export abstract class ReleasedImages {
  /** Up to `limit` releases, oldest first. */
  abstract next(limit: number): Promise<ReleasedImage[]>;
  /** Forgets these releases: their bytes are dealt with. */
  abstract forget(ids: readonly number[]): Promise<void>;
}
