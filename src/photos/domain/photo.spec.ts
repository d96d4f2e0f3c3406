import { Requester } from '../../common/requester';
import { checkOwnership, checkPosition } from './photo';
import { photoKeyOf, mediaTypeOfKey, parsePhotoKey, PHOTO_KEY_PATTERN } from './photo-key';
import { PetNotOwnedError, PhotoPositionError } from './photo.errors';

const HASH = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

describe('a photo', () => {
  it('may be changed by a key of the organisation owning its pet, and no other', () => {
    const pet = (organizationId: number | null) =>
      organizationId === null ? null : { organizationId };
    const key = (organizationId: number | null | undefined) =>
      ({ keyId: '1', scopes: ['pets:manage'], organizationId }) as Requester;
    expect(() => checkOwnership(3, pet(7), key(7))).not.toThrow();
    for (const [owner, organization] of [
      [7, 8],
      [null, 7],
      [7, null],
      [7, undefined],
      [null, null],
    ] as const) {
      expect(() => checkOwnership(3, pet(owner), key(organization))).toThrow(PetNotOwnedError);
      expect(() => checkOwnership(3, pet(owner), key(organization))).toThrow('No pet with id 3.');
    }
  });

  it('moves to a place among the pet’s photos: 1 to their count', () => {
    expect(() => checkPosition(1, 3)).not.toThrow();
    expect(() => checkPosition(3, 3)).not.toThrow();
    for (const position of [0, 4, -1, 1.5]) {
      expect(() => checkPosition(position, 3)).toThrow(PhotoPositionError);
    }
    expect(() => checkPosition(4, 3)).toThrow(
      "position must be an integer from 1 to 3 (the pet's photos), got 4.",
    );
  });
});

describe('a photo key', () => {
  it('is the hash of the bytes and the extension of their format', () => {
    expect(photoKeyOf(HASH, 'jpeg')).toBe(`${HASH}.jpg`);
    expect(photoKeyOf(HASH, 'webp')).toBe(`${HASH}.webp`);
    expect(mediaTypeOfKey(`${HASH}.png`)).toBe('image/png');
    expect(() => photoKeyOf('abc', 'jpeg')).toThrow(/SHA-256/);
  });

  it('is read back only from its exact form', () => {
    expect(parsePhotoKey(`${HASH}.png`)).toEqual({ hash: HASH, format: 'png' });
    for (const text of [
      `${HASH}.gif`,
      `${HASH}.jpeg`,
      `${HASH.toUpperCase()}.jpg`,
      `${HASH.slice(1)}.jpg`,
      `${HASH}.jpg/`,
      `../${HASH}.jpg`,
      HASH,
    ]) {
      expect(parsePhotoKey(text)).toBeNull();
      expect(PHOTO_KEY_PATTERN.test(text)).toBe(false);
    }
    expect(PHOTO_KEY_PATTERN.test(`${HASH}.webp`)).toBe(true);
  });
});
