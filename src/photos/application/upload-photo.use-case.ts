import { PET_EVENTS } from '../../common/events/pet-events';
import { Injectable } from '@nestjs/common';
import { EventRecorder } from '../../common/events/event-recorder';
import { Requester } from '../../common/requester';
import { checkScope } from '../../common/scopes';
import { Transactions } from '../../common/transactions';
import {
  ClientIdempotencyKey,
  fingerprintOf,
  Idempotency,
} from '../../platform/idempotency/idempotency';
import { checkUpload } from '../domain/image-rules';
import { checkOwnership, MAX_PHOTOS_PER_PET, PetId, Photo } from '../domain/photo';
import { PhotoLimitReachedError } from '../domain/photo.errors';
import { distinctVariants, ImageFile, ImageProcessor, variantKeys } from './image-processor';
import { PhotoStorage } from './photo-storage';
import { PhotoRepository } from './photo.repository';
import { PetOwnership } from '../../pets/application/ports/pet-ownership';
import { PhotographedPets } from './photographed-pets';

/** An uploaded image as it arrived: its file, the type its Content-Type named, its digest. */
export interface PhotoUpload extends ImageFile {
  readonly contentType: string | undefined;
  /** The SHA-256 of its bytes, in hex. */
  sha256(): Promise<string>;
}

export interface Upload {
  readonly photo: Photo;
  /** True when this answers a retry under the same Idempotency-Key: nothing new was stored. */
  readonly replayed: boolean;
}

@Injectable()
export class UploadPhoto {
  constructor(
    private readonly owners: PetOwnership,
    private readonly pets: PhotographedPets,
    private readonly photos: PhotoRepository,
    private readonly images: ImageProcessor,
    private readonly storage: PhotoStorage,
    private readonly events: EventRecorder,
    private readonly transactions: Transactions,
    private readonly idempotency: Idempotency,
  ) {}

  /**
   * The scope (403), the body's type and size (415, 413), the pet and its owner (404), room for
   * one more photo (409), then the costly part: decoding (400), the variants, stored before the
   * photo that names them is recorded, with its pet.updated, in one transaction.
   */
  async execute(
    requester: Requester,
    petId: PetId,
    upload: PhotoUpload,
    idempotencyKey?: ClientIdempotencyKey,
  ): Promise<Upload> {
    checkScope(['pets:manage'], requester.scopes);
    if (!idempotencyKey)
      return { photo: await this.add(requester, petId, upload), replayed: false };
    // Claimed apart from the upload's own transaction: decoding takes a while and must not hold a
    // transaction (nor the embedded engine's one connection) open; a retry waits for the answer.
    const fingerprint = fingerprintOf([petId, upload.contentType ?? null, await upload.sha256()]);
    const { value, replayed } = await this.idempotency.onceApart(
      { ...idempotencyKey, fingerprint },
      () => this.add(requester, petId, upload),
    );
    return { photo: value, replayed };
  }

  private async add(requester: Requester, petId: PetId, upload: PhotoUpload): Promise<Photo> {
    const format = checkUpload(upload.head, upload.size, upload.contentType);
    // Refused before any pixel is decoded, when it can be told already; asked again below, under
    // the pet's lock, as another upload or a deletion may have come in between.
    await this.checkRoom(requester, petId);
    // Each organisation's images wait in a queue of their own, served in turn: one organisation's
    // uploads never hold another's for more than one image (CONTRACT.md, v1.4).
    const queue =
      requester.organizationId === null
        ? `key:${requester.keyId}`
        : `organization:${requester.organizationId}`;
    const image = await this.images.process(upload, format, queue);
    await Promise.all(
      distinctVariants(image).map(({ key, bytes }) => this.storage.put(key, bytes)),
    );
    return this.transactions.run(async () => {
      await this.checkRoom(requester, petId);
      const photo = await this.photos.add({
        petId,
        width: image.width,
        height: image.height,
        variants: variantKeys(image),
      });
      await this.events.record([
        { type: PET_EVENTS['pet.updated'], data: await this.pets.photosChanged(petId) },
      ]);
      return photo;
    });
  }

  private async checkRoom(requester: Requester, petId: PetId): Promise<void> {
    checkOwnership(petId, await this.owners.ownerOf(petId, { lock: true }), requester);
    if ((await this.photos.countOf(petId)) >= MAX_PHOTOS_PER_PET) {
      throw new PhotoLimitReachedError(petId, MAX_PHOTOS_PER_PET);
    }
  }
}
