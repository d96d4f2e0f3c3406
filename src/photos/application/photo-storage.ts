import type { Readable } from 'node:stream';
import { PhotoKey } from '../domain/photo-key';

/** A stored variant, as read back: its type, its length in bytes, and its bytes as a stream. */
export interface StoredPhoto {
  readonly contentType: string;
  readonly length: number;
  readonly body: Readable;
}

/**
 * Port: where the variants' bytes are kept, by their content-addressed key (its extension names
 * their type). One contract (test/support/photo-storage.contract.ts) holds for every adapter: a
 * local directory, an S3-compatible bucket.
 */
export abstract class PhotoStorage {
  /**
   * Stores `bytes` under `key`, atomically: until it resolves, `get` finds nothing there or the
   * whole of them, never a part. Storing a key again stores the same bytes (the key is their hash).
   */
  abstract put(key: PhotoKey, bytes: Uint8Array): Promise<void>;

  /** The bytes under `key`, or null when there are none. */
  abstract get(key: PhotoKey): Promise<StoredPhoto | null>;

  abstract exists(key: PhotoKey): Promise<boolean>;

  /** Removes the bytes under `key`; a key with none is no error. */
  abstract delete(key: PhotoKey): Promise<void>;
}
