import { Module } from '@nestjs/common';
import { BackgroundModule } from '../platform/background/background.module';
import { EventRecordingModule } from '../platform/event-log/event-recording.module';
import { Feature } from '../platform/features/feature';
import { HttpModule } from '../platform/http/http.module';
import { IdempotencyModule } from '../platform/idempotency/idempotency.module';
import { DeletePhoto } from './application/delete-photo.use-case';
import { ForgetReleasedImages } from './application/forget-released-images.use-case';
import { GetPhotoImage } from './application/get-photo-image.use-case';
import { ImageProcessor } from './application/image-processor';
import { PhotoRepository } from './application/photo.repository';
import { PhotographedPets } from './application/photographed-pets';
import { ReleasedImages } from './application/released-images';
import { ReorderPhoto } from './application/reorder-photo.use-case';
import { UploadPhoto } from './application/upload-photo.use-case';
import { PetPhotosController } from './http/pet-photos.controller';
import { PhotoImagesController } from './http/photo-images.controller';
import { PhotoBudgetGuard } from './http/photo-budget.guard';
import { PetPortsModule } from '../pets/pet-ports.module';
import { PHOTO_STORAGE } from './infrastructure/photo-storage.provider';
import { ReleasedImagesSweeper } from './infrastructure/released-images-sweeper';
import { SharpImageProcessor } from './infrastructure/sharp-image-processor';
import { SqlPhotoRepository } from './infrastructure/sql-photo.repository';
import { SqlPhotographedPets } from './infrastructure/sql-photographed-pets';
import { SqlReleasedImages } from './infrastructure/sql-released-images';

/**
 * Photos of the pets (docs/adr/0043, 0054): the image pipeline, the storage of the variants,
 * their public, immutable URLs, and the pets' photos added, moved and removed by their
 * organisation's staff, each change shown on the pet (its `photos`, a new version, `pet.updated`).
 * A deleted pet's photos go with it, and their images soon after (ReleasedImagesSweeper).
 */
@Feature({
  tag: {
    name: 'photos',
    description:
      'Photos of the animals, each in four sizes at immutable, content-addressed URLs that need no key',
  },
  tables: { owns: ['photos', 'photo_images_released'], uses: ['pets'] },
})
@Module({
  imports: [HttpModule, IdempotencyModule, EventRecordingModule, BackgroundModule, PetPortsModule],
  controllers: [PetPhotosController, PhotoImagesController],
  providers: [
    UploadPhoto,
    ReorderPhoto,
    DeletePhoto,
    GetPhotoImage,
    ForgetReleasedImages,
    ReleasedImagesSweeper,
    PhotoBudgetGuard,
    PHOTO_STORAGE,
    { provide: ImageProcessor, useClass: SharpImageProcessor },
    { provide: PhotoRepository, useClass: SqlPhotoRepository },
    { provide: PhotographedPets, useClass: SqlPhotographedPets },
    { provide: ReleasedImages, useClass: SqlReleasedImages },
  ],
})
export class PhotosModule {}
