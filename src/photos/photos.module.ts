import { Module } from '@nestjs/common';
import { Feature } from '../platform/features/feature';
import { HttpModule } from '../platform/http/http.module';
import { GetPhotoImage } from './application/get-photo-image.use-case';
import { ImageProcessor } from './application/image-processor';
import { PhotoRepository } from './application/photo.repository';
import { PhotoImagesController } from './http/photo-images.controller';
import { PhotoBudgetGuard } from './http/photo-budget.guard';
import { PHOTO_STORAGE } from './infrastructure/photo-storage.provider';
import { SharpImageProcessor } from './infrastructure/sharp-image-processor';
import { SqlPhotoRepository } from './infrastructure/sql-photo.repository';

/**
 * Photos of the pets (docs/adr/0043): the image pipeline, the storage of the variants, and their
 * public, immutable URLs. Uploading, reordering and deleting photos (UploadPhoto, ReorderPhoto,
 * DeletePhoto) bind here with an adapter of PhotographedPets, once pets have owners.
 */
@Feature({
  tag: {
    name: 'photos',
    description:
      'Photos of the animals, each in four sizes at immutable, content-addressed URLs that need no key',
  },
  tables: { owns: ['photos'], uses: ['pets'] },
})
@Module({
  imports: [HttpModule],
  controllers: [PhotoImagesController],
  providers: [
    GetPhotoImage,
    PhotoBudgetGuard,
    PHOTO_STORAGE,
    { provide: ImageProcessor, useClass: SharpImageProcessor },
    { provide: PhotoRepository, useClass: SqlPhotoRepository },
  ],
})
export class PhotosModule {}
