import { createHash, randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { PhotoStorage } from '../../src/photos/application/photo-storage';
import { ImageFormat } from '../../src/photos/domain/image-format';
import { photoKeyOf } from '../../src/photos/domain/photo-key';

/** Bytes standing for a variant, and their key: the SHA-256 of the bytes, with the format's extension. */
export function variantOf(bytes: Uint8Array, format: ImageFormat = 'jpeg') {
  return { bytes, key: photoKeyOf(createHash('sha256').update(bytes).digest('hex'), format) };
}

export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

export interface PhotoStorageContractOptions {
  /**
   * Who makes a put atomic: the adapter (the default: checked here), or the store behind it, which
   * a peer standing in for it may not be. S3 stores an object whole or not at all; s3rver writes its
   * file in place as the body arrives, so a reader may see a part of it (docs/adr/0043).
   */
  atomicPutsBy?: 'adapter' | 'store';
}

/**
 * The behaviour every PhotoStorage adapter must have; run by each adapter's spec (the local
 * directory, S3 against a real S3 protocol peer, the in-memory fake). `create` gives a storage of
 * its own to each test, or one whose keys no other test uses (every test stores fresh bytes).
 */
export function photoStorageContract(
  name: string,
  create: () => PhotoStorage | Promise<PhotoStorage>,
  { atomicPutsBy = 'adapter' }: PhotoStorageContractOptions = {},
) {
  describe(`${name} (photo storage contract)`, () => {
    it('gives back the bytes stored under a key, with their type and length', async () => {
      const storage = await create();
      const { key, bytes } = variantOf(randomBytes(1000));
      await storage.put(key, bytes);
      const stored = await storage.get(key);
      expect(stored).toMatchObject({ contentType: 'image/jpeg', length: 1000 });
      expect((await readAll(stored!.body)).equals(bytes)).toBe(true);
    });

    it('knows each format by its key: JPEG, PNG and WebP', async () => {
      const storage = await create();
      for (const [format, type] of [
        ['jpeg', 'image/jpeg'],
        ['png', 'image/png'],
        ['webp', 'image/webp'],
      ] as const) {
        const { key, bytes } = variantOf(randomBytes(10), format);
        await storage.put(key, bytes);
        const stored = await storage.get(key);
        expect(stored?.contentType).toBe(type);
        await readAll(stored!.body);
      }
    });

    it('streams a large object whole', async () => {
      const storage = await create();
      const { key, bytes } = variantOf(randomBytes(3 * 1024 * 1024 + 17));
      await storage.put(key, bytes);
      const stored = (await storage.get(key))!;
      expect(stored.length).toBe(bytes.length);
      expect((await readAll(stored.body)).equals(bytes)).toBe(true);
    });

    it('finds nothing under a key never stored, and deleting it is no error', async () => {
      const storage = await create();
      const { key } = variantOf(randomBytes(10));
      expect(await storage.get(key)).toBeNull();
      expect(await storage.exists(key)).toBe(false);
      await expect(storage.delete(key)).resolves.toBeUndefined();
    });

    it('tells whether a key holds bytes, until they are deleted', async () => {
      const storage = await create();
      const kept = variantOf(randomBytes(10));
      const deleted = variantOf(randomBytes(10));
      await storage.put(kept.key, kept.bytes);
      await storage.put(deleted.key, deleted.bytes);
      expect(await storage.exists(deleted.key)).toBe(true);
      await storage.delete(deleted.key);
      expect(await storage.exists(deleted.key)).toBe(false);
      expect(await storage.get(deleted.key)).toBeNull();
      expect(await storage.exists(kept.key)).toBe(true);
    });

    it('stores a key again, and at once from many callers, as one whole copy', async () => {
      const storage = await create();
      const { key, bytes } = variantOf(randomBytes(256 * 1024));
      await storage.put(key, bytes);
      await Promise.all(Array.from({ length: 8 }, () => storage.put(key, bytes)));
      const stored = (await storage.get(key))!;
      expect(stored.length).toBe(bytes.length);
      expect((await readAll(stored.body)).equals(bytes)).toBe(true);
    });

    if (atomicPutsBy !== 'adapter') return;

    it('never shows part of an object: a reader during a put finds nothing or all of it', async () => {
      const storage = await create();
      const { key, bytes } = variantOf(randomBytes(4 * 1024 * 1024));
      const reads: (Buffer | null)[] = [];
      let done = false;
      const put = storage.put(key, bytes).finally(() => (done = true));
      while (!done) {
        const stored = await storage.get(key);
        reads.push(stored && (await readAll(stored.body)));
      }
      await put;
      for (const read of reads) if (read) expect(read.equals(bytes)).toBe(true);
      expect(await storage.exists(key)).toBe(true);
    });
  });
}
