import { loadConfig } from '../../platform/config/app-config';
import { photoImagesBase, photoUrls } from './photo-urls';

const key = (n: number) => `${String(n).repeat(64)}.jpg`;

describe("the photos' URLs", () => {
  it('are the service’s own by default, under PUBLIC_BASE_URL', () => {
    expect(photoImagesBase(loadConfig({}))).toBe('http://localhost:3000/v1/photos');
    expect(photoImagesBase(loadConfig({ PUBLIC_BASE_URL: 'https://pets.example/v1' }))).toBe(
      'https://pets.example/v1/photos',
    );
  });

  it('start at PHOTO_PUBLIC_BASE_URL when the images are in S3 behind a CDN', () => {
    const config = loadConfig({
      PHOTO_S3_BUCKET: 'pet-photos',
      AWS_REGION: 'eu-west-1',
      PHOTO_PUBLIC_BASE_URL: 'https://cdn.pets.example/',
    });
    expect(photoImagesBase(config)).toBe('https://cdn.pets.example');
  });

  it('name each size’s image, a shared one at each of its sizes', () => {
    const variants = { small: key(1), medium: key(2), large: key(2), full: key(2) };
    expect(photoUrls({ variants }, 'https://pets.example/v1/photos')).toEqual({
      small: `https://pets.example/v1/photos/${key(1)}`,
      medium: `https://pets.example/v1/photos/${key(2)}`,
      large: `https://pets.example/v1/photos/${key(2)}`,
      full: `https://pets.example/v1/photos/${key(2)}`,
    });
  });
});
