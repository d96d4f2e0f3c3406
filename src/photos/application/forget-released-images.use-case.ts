import { Injectable } from '@nestjs/common';
import { PhotoStorage } from './photo-storage';
import { PhotoRepository } from './photo.repository';
import { ReleasedImages } from './released-images';

/** Releases looked at in one step: a pet has at most 12 photos of 4 keys. */
export const RELEASES_PER_STEP = 100;

@Injectable()
export class ForgetReleasedImages {
  constructor(
    private readonly released: ReleasedImages,
    private readonly photos: PhotoRepository,
    private readonly storage: PhotoStorage,
  ) {}

  /**
   * Deletes the bytes of the next released images that no photo names any more (a live pet's
   * photo may show the very same image: the keys are content-addressed), then forgets those
   * releases. Returns how many it dealt with. A deletion that fails leaves every release of the
   * step to be tried again.
   */
  async execute(): Promise<number> {
    const releases = await this.released.next(RELEASES_PER_STEP);
    if (releases.length === 0) return 0;
    const keys = [...new Set(releases.map(({ key }) => key))];
    const kept = new Set(await this.photos.referenced(keys));
    await Promise.all(keys.filter((key) => !kept.has(key)).map((key) => this.storage.delete(key)));
    await this.released.forget(releases.map(({ id }) => id));
    return releases.length;
  }
}
