import { Injectable } from '@nestjs/common';
import { PhotoKey } from '../domain/photo-key';
import { PhotoImageNotFoundError } from '../domain/photo.errors';
import { PhotoStorage, StoredPhoto } from './photo-storage';

/** A variant's bytes, or word that the client's copy is current (nothing more to send). */
export type PhotoImage = ({ readonly current: false } & StoredPhoto) | { readonly current: true };

/** Serves a variant by its key: public pixels, no key needed (CONTRACT.md, "Photos"). */
@Injectable()
export class GetPhotoImage {
  constructor(private readonly storage: PhotoStorage) {}

  /**
   * `held`: the client holds this key's bytes already (its If-None-Match names them). A key's
   * bytes never change, so it only needs to hear that they still exist.
   */
  async execute(key: PhotoKey, held: boolean): Promise<PhotoImage> {
    if (held) {
      if (await this.storage.exists(key)) return { current: true };
      throw new PhotoImageNotFoundError(key);
    }
    const stored = await this.storage.get(key);
    if (!stored) throw new PhotoImageNotFoundError(key);
    return { current: false, ...stored };
  }
}
