import { Readable } from 'node:stream';
import { PhotoStorage, StoredPhoto } from '../../src/photos/application/photo-storage';
import { mediaTypeOfKey, PhotoKey } from '../../src/photos/domain/photo-key';

/** Variants in a map, for unit tests; it passes the storage contract like the real adapters. */
export class InMemoryPhotoStorage extends PhotoStorage {
  readonly objects = new Map<PhotoKey, Buffer>();

  async put(key: PhotoKey, bytes: Uint8Array): Promise<void> {
    this.objects.set(key, Buffer.from(bytes));
  }

  async get(key: PhotoKey): Promise<StoredPhoto | null> {
    const bytes = this.objects.get(key);
    if (!bytes) return null;
    return { contentType: mediaTypeOfKey(key), length: bytes.length, body: Readable.from([bytes]) };
  }

  async exists(key: PhotoKey): Promise<boolean> {
    return this.objects.has(key);
  }

  async delete(key: PhotoKey): Promise<void> {
    this.objects.delete(key);
  }
}
