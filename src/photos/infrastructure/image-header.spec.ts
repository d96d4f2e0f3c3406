import {
  phoneJpeg,
  plain,
  pngDeclaring,
  truncated,
  webpDeclaring,
} from '../../../test/support/test-images';
import { UndecodableImageError, UnsupportedImageError } from '../domain/photo.errors';
import { readImageHeader } from './image-header';
import { checkedHeaderOf } from './image-pipeline';

describe('readImageHeader (the service, without libvips)', () => {
  it('reads the format and stored size of a JPEG, a PNG and a WebP', async () => {
    const image = plain(400, 300);
    expect(readImageHeader(await image.clone().jpeg().toBuffer(), 'jpeg')).toEqual({
      format: 'jpeg',
      width: 400,
      height: 300,
    });
    expect(readImageHeader(await image.clone().png().toBuffer(), 'png')).toMatchObject({
      width: 400,
      height: 300,
    });
    expect(readImageHeader(await image.clone().webp().toBuffer(), 'webp')).toMatchObject({
      width: 400,
      height: 300,
    });
  });

  it('reads what a header declares, decoding nothing: a bomb’s size, a sliver’s', async () => {
    expect(readImageHeader(await pngDeclaring(1, 66_000), 'png')).toMatchObject({
      width: 1,
      height: 66_000,
    });
    expect(readImageHeader(await webpDeclaring(16_384, 16_384), 'webp')).toMatchObject({
      width: 16_384,
      height: 16_384,
    });
  });

  it('reads the size as stored, before the orientation tag turns it', async () => {
    expect(readImageHeader(await phoneJpeg(), 'jpeg')).toMatchObject({ width: 40, height: 20 });
  });

  it('refuses a header it cannot read, and bytes of another format than judged', async () => {
    const jpeg = await plain(400, 300).jpeg().toBuffer();
    expect(() => readImageHeader(jpeg.subarray(0, 4), 'jpeg')).toThrow(UndecodableImageError);
    expect(() => readImageHeader(jpeg, 'png')).toThrow(UnsupportedImageError);
  });
});

describe('checkedHeaderOf (the worker, with libvips, before a pixel is decoded)', () => {
  it('answers the size as displayed and the alpha channel when libvips reads what the service read', async () => {
    const phone = await phoneJpeg();
    expect(await checkedHeaderOf(phone, readImageHeader(phone, 'jpeg'))).toEqual({
      width: 20,
      height: 40,
      hasAlpha: false,
    });
  });

  it('refuses an image whose header libvips reads otherwise, or not at all', async () => {
    const jpeg = await plain(400, 300).jpeg().toBuffer();
    const read = readImageHeader(jpeg, 'jpeg');
    await expect(checkedHeaderOf(jpeg, { ...read, height: 30 })).rejects.toThrow(
      UndecodableImageError,
    );
    await expect(checkedHeaderOf(jpeg, { ...read, format: 'png' })).rejects.toThrow(
      UndecodableImageError,
    );
    await expect(checkedHeaderOf(truncated(jpeg, 0.01), read)).rejects.toThrow(
      UndecodableImageError,
    );
  });
});
