import { randomUUID } from 'node:crypto';
import { access, mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { PhotoStorage, StoredPhoto } from '../application/photo-storage';
import { mediaTypeOfKey, parsePhotoKey, PhotoKey } from '../domain/photo-key';

const isMissing = (error: unknown) => (error as { code?: string }).code === 'ENOENT';

/**
 * The variants as files of a local directory (PHOTO_DIR), under a folder per first two hex digits
 * of their key (256 folders, none holding them all). Each is written to a temporary file beside
 * its place, flushed to disk and renamed there: a reader finds the whole file or none, and a crash
 * leaves at most a `*.tmp` no key names.
 */
export class LocalPhotoStorage extends PhotoStorage {
  constructor(private readonly dir: string) {
    super();
  }

  async put(key: PhotoKey, bytes: Uint8Array): Promise<void> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    const temporary = `${path}.${randomUUID()}.tmp`;
    try {
      const file = await open(temporary, 'wx');
      try {
        await file.writeFile(bytes);
        // On disk before its name is: a photo recorded after this resolves survives a crash.
        await file.sync();
      } finally {
        await file.close();
      }
      await rename(temporary, path);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }

  async get(key: PhotoKey): Promise<StoredPhoto | null> {
    let file;
    try {
      file = await open(this.pathOf(key), 'r');
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
    try {
      const { size } = await file.stat();
      // The stream closes the file when it ends, is destroyed, or fails.
      return { contentType: mediaTypeOfKey(key), length: size, body: file.createReadStream() };
    } catch (error) {
      await file.close();
      throw error;
    }
  }

  async exists(key: PhotoKey): Promise<boolean> {
    try {
      await access(this.pathOf(key));
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  async delete(key: PhotoKey): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  /** The file of a key; anything but a key (a path, `..`) never reaches the file system. */
  private pathOf(key: PhotoKey): string {
    if (!parsePhotoKey(key)) throw new Error(`"${key}" is no photo key.`);
    return join(this.dir, key.slice(0, 2), key);
  }
}
