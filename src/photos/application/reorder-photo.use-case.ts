import { PET_EVENTS } from '../../common/events/pet-events';
import { Injectable } from '@nestjs/common';
import { EventRecorder } from '../../common/events/event-recorder';
import { Requester } from '../../common/requester';
import { checkScope } from '../../common/scopes';
import { Transactions } from '../../common/transactions';
import { checkOwnership, checkPosition, PetId, Photo, PhotoId } from '../domain/photo';
import { PhotoNotFoundError } from '../domain/photo.errors';
import { PhotoRepository } from './photo.repository';
import { PetOwnership } from '../../pets/application/ports/pet-ownership';
import { PhotographedPets } from './photographed-pets';

@Injectable()
export class ReorderPhoto {
  constructor(
    private readonly owners: PetOwnership,
    private readonly pets: PhotographedPets,
    private readonly photos: PhotoRepository,
    private readonly events: EventRecorder,
    private readonly transactions: Transactions,
  ) {}

  /** Moves the photo to `position` (1 is the primary); the move and its pet.updated commit together. */
  async execute(
    requester: Requester,
    petId: PetId,
    photoId: PhotoId,
    position: number,
  ): Promise<Photo> {
    checkScope(['pets:manage'], requester.scopes);
    return this.transactions.run(async () => {
      checkOwnership(petId, await this.owners.ownerOf(petId, { lock: true }), requester);
      const photo = await this.photos.find(petId, photoId);
      if (!photo) throw new PhotoNotFoundError(petId, photoId);
      checkPosition(position, await this.photos.countOf(petId));
      // Where it already is, nothing changes: no new version of the pet, no event.
      if (photo.position === position) return photo;
      const moved = await this.photos.move(petId, photoId, position);
      await this.events.record([
        { type: PET_EVENTS['pet.updated'], data: await this.pets.photosChanged(petId) },
      ]);
      return moved!;
    });
  }
}
