import { PET_EVENTS } from '../../common/events/pet-events';
import { Injectable, Logger } from '@nestjs/common';
import { EventRecorder } from '../../common/events/event-recorder';
import { Requester } from '../../common/requester';
import { checkScope } from '../../common/scopes';
import { Transactions } from '../../common/transactions';
import { checkOwnership, PetId, Photo, PhotoId } from '../domain/photo';
import { PhotoNotFoundError } from '../domain/photo.errors';
import { PhotoStorage } from './photo-storage';
import { PhotoRepository } from './photo.repository';
import { PetOwnership } from '../../pets/application/ports/pet-ownership';
import { PhotographedPets } from './photographed-pets';

@Injectable()
export class DeletePhoto {
  private readonly logger = new Logger('Photos');

  constructor(
    private readonly owners: PetOwnership,
    private readonly pets: PhotographedPets,
    private readonly photos: PhotoRepository,
    private readonly storage: PhotoStorage,
    private readonly events: EventRecorder,
    private readonly transactions: Transactions,
  ) {}

  /**
   * Removes the photo (the ones after it move up), with its pet.updated, in one transaction; then
   * the bytes of its variants that no other photo names (the same image may be another photo too).
   */
  async execute(requester: Requester, petId: PetId, photoId: PhotoId): Promise<void> {
    checkScope(['pets:manage'], requester.scopes);
    const removed = await this.transactions.run(async () => {
      checkOwnership(petId, await this.owners.ownerOf(petId, { lock: true }), requester);
      const photo = await this.photos.remove(petId, photoId);
      if (!photo) throw new PhotoNotFoundError(petId, photoId);
      await this.events.record([
        { type: PET_EVENTS['pet.updated'], data: await this.pets.photosChanged(petId) },
      ]);
      return photo;
    });
    await this.forgetBytes(removed);
  }

  /**
   * The photo is gone once its transaction commits; its bytes are only tidied up after. Failing
   * here leaves bytes no photo names, unreachable but for their URL, and fails no request.
   */
  private async forgetBytes(photo: Photo): Promise<void> {
    const keys = [...new Set(Object.values(photo.variants))];
    try {
      const kept = new Set(await this.photos.referenced(keys));
      await Promise.all(
        keys.filter((key) => !kept.has(key)).map((key) => this.storage.delete(key)),
      );
    } catch (error) {
      this.logger.warn(
        `The variants of photo ${photo.id} stay stored, named by no photo: ${(error as Error).message}`,
      );
    }
  }
}
