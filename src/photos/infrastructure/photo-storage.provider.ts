import { Provider } from '@nestjs/common';
import { AppConfig } from '../../platform/config/app-config';
import { PhotoStorage } from '../application/photo-storage';
import { LocalPhotoStorage } from './local-photo-storage';

/**
 * The storage the configuration names: the local directory by default, or an S3 bucket. The AWS
 * SDK is loaded only for S3: it takes about half a second, which every other start would pay.
 */
export const PHOTO_STORAGE: Provider = {
  provide: PhotoStorage,
  inject: [AppConfig],
  useFactory: ({ photos: { storage } }: AppConfig): PhotoStorage => {
    if (storage.kind === 'local') return new LocalPhotoStorage(storage.dir);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const s3 = require('./s3-photo-storage') as typeof import('./s3-photo-storage');
    return new s3.S3PhotoStorage(s3.s3ClientFor(storage), storage.bucket);
  },
};
