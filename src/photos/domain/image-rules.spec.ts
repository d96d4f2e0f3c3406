import { formatOfBytes, formatOfMediaType } from './image-format';
import { checkDimensions, checkUpload, MAX_IMAGE_BYTES } from './image-rules';
import {
  ImageSideOutOfRangeError,
  ImageTooLargeError,
  ImageTooManyPixelsError,
  UnsupportedImageError,
} from './photo.errors';

const bytes = (...values: (number | string)[]) =>
  Uint8Array.from(
    values.flatMap((value) =>
      typeof value === 'string' ? [...value].map((char) => char.charCodeAt(0)) : [value],
    ),
  );

const JPEG = bytes(0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 'JFIF');
const PNG = bytes(0x89, 'PNG', 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 'IHDR');
const WEBP = bytes('RIFF', 0x24, 0, 0, 0, 'WEBPVP8 ');

describe('the image rules', () => {
  describe('the type, from the bytes', () => {
    it.each([
      ['JPEG', JPEG, 'jpeg'],
      ['PNG', PNG, 'png'],
      ['WebP', WEBP, 'webp'],
    ])('knows %s by its magic number', (_, image, format) => {
      expect(formatOfBytes(image)).toBe(format);
    });

    it.each([
      ['GIF', bytes('GIF89a', 1, 0, 1, 0)],
      ['a RIFF that is no WebP (WAVE)', bytes('RIFF', 0x24, 0, 0, 0, 'WAVEfmt ')],
      ['SVG', bytes('<svg xmlns="http://www.w3.org/2000/svg"/>')],
      ['a PNG signature cut short', PNG.subarray(0, 7)],
      ['two bytes of a JPEG', JPEG.subarray(0, 2)],
      ['nothing', bytes()],
    ])('knows no format in %s', (_, image) => {
      expect(formatOfBytes(image)).toBeNull();
    });

    it('reads the Content-Type without regard to case or parameters', () => {
      expect(formatOfMediaType('IMAGE/PNG')).toBe('png');
      expect(formatOfMediaType('image/webp; q=1')).toBe('webp');
      expect(formatOfMediaType('image/jpg')).toBeNull();
      expect(formatOfMediaType('application/octet-stream')).toBeNull();
      expect(formatOfMediaType(undefined)).toBeNull();
    });
  });

  describe('checkUpload', () => {
    it('accepts bytes of the type their Content-Type names', () => {
      expect(checkUpload(JPEG, JPEG.length, 'image/jpeg')).toBe('jpeg');
      expect(checkUpload(PNG, PNG.length, 'image/png')).toBe('png');
      expect(checkUpload(WEBP, WEBP.length, 'image/webp')).toBe('webp');
    });

    it.each([
      [PNG, 'image/jpeg', /The body is a image\/png image, but its Content-Type says image\/jpeg/],
      [JPEG, undefined, /but its Content-Type says nothing/],
      [JPEG, 'application/octet-stream', /says application\/octet-stream/],
      [bytes('GIF89a', 1, 0, 1, 0), 'image/gif', /not a JPEG, PNG or WebP image/],
      [bytes('GIF89a', 1, 0, 1, 0), 'image/png', /not a JPEG, PNG or WebP image/],
    ])('refuses %j sent as %s with 415', (image, contentType, message) => {
      expect(() => checkUpload(image, image.length, contentType)).toThrow(UnsupportedImageError);
      expect(() => checkUpload(image, image.length, contentType)).toThrow(message);
    });

    it('takes 10 MiB, not a byte more (413), judged by its size, whatever of it is in hand', () => {
      expect(() => checkUpload(JPEG, MAX_IMAGE_BYTES + 1, 'image/jpeg')).toThrow(
        ImageTooLargeError,
      );
      expect(() => checkUpload(JPEG, MAX_IMAGE_BYTES + 1, 'image/jpeg')).toThrow(
        'The image is larger than 10 MiB.',
      );
      expect(checkUpload(JPEG, MAX_IMAGE_BYTES, 'image/jpeg')).toBe('jpeg');
    });
  });

  describe('checkDimensions', () => {
    it('takes each side from 16 to 16,384 px, not one pixel beyond', () => {
      for (const [width, height] of [
        [16, 16],
        [16, 16_384],
        [16_384, 16],
        [2441, 16_384],
      ])
        expect(() => checkDimensions(width, height)).not.toThrow();
      for (const [width, height] of [
        [15, 16],
        [16, 15],
        [16_385, 16],
        [16, 16_385],
        [1, 66_000],
        [0, 100],
        [100, Number.NaN],
        [16.5, 100],
      ])
        expect(() => checkDimensions(width, height)).toThrow(ImageSideOutOfRangeError);
    });

    it('names the rule broken, in its message and its details', () => {
      const error = (() => {
        try {
          checkDimensions(1, 66_000);
        } catch (thrown) {
          return thrown as ImageSideOutOfRangeError;
        }
      })()!;
      expect(error.message).toBe(
        'The image is 1 × 66000 pixels; its width must be 16 to 16,384 pixels.',
      );
      expect(error.details).toEqual([{ field: 'body', issue: 'range', message: error.message }]);
      expect(() => checkDimensions(100, 16_385)).toThrow(
        'The image is 100 × 16385 pixels; its height must be 16 to 16,384 pixels.',
      );
    });

    it('takes 40 megapixels, not one pixel more', () => {
      expect(() => checkDimensions(8000, 5000)).not.toThrow();
      expect(() => checkDimensions(16_000, 2500)).not.toThrow();
      expect(() => checkDimensions(8000, 5001)).toThrow(ImageTooManyPixelsError);
      expect(() => checkDimensions(16_384, 2442)).toThrow(ImageTooManyPixelsError);
      expect(() => checkDimensions(16_384, 16_384)).toThrow(
        'The image is 16384 × 16384 pixels (268.4 megapixels); at most 40 megapixels are accepted.',
      );
    });
  });
});
