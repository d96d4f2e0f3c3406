import { Provider } from '@nestjs/common';
import { AppConfig } from '../../platform/config/app-config';
import { PhotoStorage } from '../application/photo-storage';
import { LocalPhotoStorage } from './local-photo-storage';
import { S3PhotoStorage, s3ClientFor } from './s3-photo-storage';

/** The storage the configuration names: the local directory by default, or an S3 bucket. */
export const PHOTO_STORAGE: Provider = {
  provide: PhotoStorage,
  inject: [AppConfig],
  useFactory: ({ photos: { storage } }: AppConfig): PhotoStorage =>
    storage.kind === 'local'
      ? new LocalPhotoStorage(storage.dir)
      : new S3PhotoStorage(s3ClientFor(storage), storage.bucket),
};
