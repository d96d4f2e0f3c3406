import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { InMemoryPhotoStorage } from '../../../test/fakes/in-memory-photo-storage';
import { photoStorageContract, variantOf } from '../../../test/support/photo-storage.contract';
import { LocalPhotoStorage } from './local-photo-storage';

describe('LocalPhotoStorage', () => {
  const dirs: string[] = [];
  const freshDir = async () => {
    const dir = await mkdtemp(join(tmpdir(), 'photos-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

  photoStorageContract('a local directory', async () => new LocalPhotoStorage(await freshDir()));
  photoStorageContract(
    'the in-memory fake of the use cases’ specs',
    () => new InMemoryPhotoStorage(),
  );

  it('creates its directory when it first stores, and leaves no temporary file', async () => {
    const dir = join(await freshDir(), 'not', 'yet');
    const storage = new LocalPhotoStorage(dir);
    const { key, bytes } = variantOf(randomBytes(10));
    await storage.put(key, bytes);
    expect(await readdir(join(dir, key.slice(0, 2)))).toEqual([key]);
  });

  it('leaves nothing behind when a write fails', async () => {
    const dir = await freshDir();
    const storage = new LocalPhotoStorage(dir);
    const { key, bytes } = variantOf(randomBytes(10));
    const folder = join(dir, key.slice(0, 2));
    // A directory where the file would go: the rename fails, after the temporary file was written.
    await mkdir(join(folder, key), { recursive: true });
    await expect(storage.put(key, bytes)).rejects.toThrow(/EISDIR|ENOTEMPTY|EEXIST/);
    expect(await readdir(folder)).toEqual([key]);
  });

  it('refuses anything but a key, so that no path leaves its directory', async () => {
    const storage = new LocalPhotoStorage(await freshDir());
    for (const text of ['../../etc/passwd', `${'a'.repeat(64)}.jpg/..`, `${'A'.repeat(64)}.jpg`]) {
      await expect(storage.get(text)).rejects.toThrow(/no photo key/);
      await expect(storage.put(text, Buffer.from('x'))).rejects.toThrow(/no photo key/);
    }
  });
});
