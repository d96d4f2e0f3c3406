import { ReleasedImage, ReleasedImages } from '../../src/photos/application/released-images';
import { PhotoKey } from '../../src/photos/domain/photo-key';

/** Released images in an array, for unit tests: what the deleting trigger records, by release. */
export class InMemoryReleasedImages extends ReleasedImages {
  rows: ReleasedImage[] = [];
  private nextId = 1;

  /** What the trigger does when a pet with photos of these keys is deleted. */
  release(...keys: PhotoKey[]): void {
    for (const key of new Set(keys)) this.rows.push({ id: this.nextId++, key });
  }

  async next(limit: number): Promise<ReleasedImage[]> {
    return this.rows.slice(0, limit).map((row) => ({ ...row }));
  }

  async forget(ids: readonly number[]): Promise<void> {
    this.rows = this.rows.filter(({ id }) => !ids.includes(id));
  }
}
