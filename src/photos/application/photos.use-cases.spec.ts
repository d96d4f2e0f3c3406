import { createHash } from 'node:crypto';
import { Requester } from '../../common/requester';
import { IdempotencyKeyReusedError } from '../../platform/idempotency/idempotency';
import { InsufficientScopeError } from '../../common/scopes';
import { FakeImageProcessor } from '../../../test/fakes/fake-image-processor';
import { InMemoryEvents } from '../../../test/fakes/in-memory-events';
import { InMemoryIdempotency } from '../../../test/fakes/in-memory-idempotency';
import { InMemoryPhotoStorage } from '../../../test/fakes/in-memory-photo-storage';
import { InMemoryPhotoRepository } from '../../../test/fakes/in-memory-photo.repository';
import { InMemoryPhotographedPets } from '../../../test/fakes/in-memory-photographed-pets';
import { InMemoryReleasedImages } from '../../../test/fakes/in-memory-released-images';
import {
  ImageProcessingBusyError,
  PetNotOwnedError,
  PhotoImageNotFoundError,
  PhotoLimitReachedError,
  PhotoNotFoundError,
  PhotoPositionError,
  UndecodableImageError,
  UnsupportedImageError,
} from '../domain/photo.errors';
import { DeletePhoto } from './delete-photo.use-case';
import { ForgetReleasedImages, RELEASES_PER_STEP } from './forget-released-images.use-case';
import { GetPhotoImage } from './get-photo-image.use-case';
import { readAll } from '../../../test/support/photo-storage.contract';
import { ReorderPhoto } from './reorder-photo.use-case';
import { PhotoUpload, UploadPhoto } from './upload-photo.use-case';

/** Staff of organisation 7, which owns pet 1; organisation 8 owns pet 2. */
const staff: Requester = { keyId: '1', scopes: ['pets:read', 'pets:manage'], organizationId: 7 };
/** An upload of these bytes, all of them in hand (the processor is a fake: no file is read). */
const uploadOf = (bytes: Uint8Array, contentType: string): PhotoUpload => ({
  path: '/nowhere',
  size: bytes.length,
  head: bytes,
  contentType,
  sha256: async () => createHash('sha256').update(bytes).digest('hex'),
});
const jpeg = (n = 0) => uploadOf(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, n]), 'image/jpeg');

describe('the photos use cases', () => {
  let pets: InMemoryPhotographedPets;
  let photos: InMemoryPhotoRepository;
  let images: FakeImageProcessor;
  let storage: InMemoryPhotoStorage;
  let events: InMemoryEvents;
  let idempotency: InMemoryIdempotency;
  let upload: UploadPhoto;
  let reorder: ReorderPhoto;
  let remove: DeletePhoto;

  beforeEach(() => {
    pets = new InMemoryPhotographedPets();
    pets.add(1, 7);
    pets.add(2, 8);
    photos = new InMemoryPhotoRepository();
    images = new FakeImageProcessor();
    storage = new InMemoryPhotoStorage();
    events = new InMemoryEvents();
    const transactions = photos.transactionsWith(events);
    idempotency = new InMemoryIdempotency();
    upload = new UploadPhoto(
      pets.owners,
      pets,
      photos,
      images,
      storage,
      events,
      transactions,
      idempotency,
    );
    reorder = new ReorderPhoto(pets.owners, pets, photos, events, transactions);
    remove = new DeletePhoto(pets.owners, pets, photos, storage, events, transactions);
  });

  /** Uploads `count` photos of pet 1, then forgets their events. */
  const given = async (count: number) => {
    const added = [];
    for (let i = 0; i < count; i++) added.push((await upload.execute(staff, 1, jpeg(i))).photo);
    events.recorded.length = 0;
    return added;
  };
  const positions = async () => (await photos.listOf(1)).map(({ id, position }) => [id, position]);

  describe('UploadPhoto', () => {
    it('stores the variants, records the photo last, and the pet.updated with its new version', async () => {
      await given(1);
      const { photo } = await upload.execute(staff, 1, jpeg(1));
      expect(photo).toMatchObject({ id: 2, petId: 1, position: 2, width: 1200, height: 800 });
      expect(Object.keys(photo.variants)).toEqual(['small', 'medium', 'large', 'full']);
      for (const key of Object.values(photo.variants)) expect(await storage.exists(key)).toBe(true);
      expect(events.recorded).toEqual([
        { type: 'pet.updated', data: expect.objectContaining({ id: 1, version: 3 }) },
      ]);
    });

    it('stores one photo for retries under one Idempotency-Key, answering the first', async () => {
      const key = { scope: 'key:1', key: 'upload-1' };
      const first = await upload.execute(staff, 1, jpeg(3), key);
      const retry = await upload.execute(staff, 1, jpeg(3), key);
      expect(first.replayed).toBe(false);
      expect(retry).toEqual({ photo: JSON.parse(JSON.stringify(first.photo)), replayed: true });
      expect(photos.rows).toHaveLength(1);
      expect(events.recorded).toHaveLength(1);
      await expect(upload.execute(staff, 1, jpeg(4), key)).rejects.toThrow(
        IdempotencyKeyReusedError,
      );
      expect(photos.rows).toHaveLength(1);
    });

    it('stores a variant shared by several sizes once', async () => {
      images.size = { width: 250, height: 250 };
      const { photo } = await upload.execute(staff, 1, jpeg());
      expect(new Set(Object.values(photo.variants)).size).toBe(2);
      expect(storage.objects.size).toBe(2);
    });

    it('checks pets:manage before anything else (403)', async () => {
      const writer: Requester = { ...staff, scopes: ['pets:read', 'pets:write'] };
      await expect(upload.execute(writer, 1, uploadOf(Uint8Array.from([1]), 'x'))).rejects.toThrow(
        InsufficientScopeError,
      );
      expect(pets.asked).toBe(0);
    });

    it('judges the body before looking the pet up (415)', async () => {
      await expect(
        upload.execute(staff, 999, { ...jpeg(), contentType: 'image/png' }),
      ).rejects.toThrow(UnsupportedImageError);
      expect(pets.asked).toBe(0);
    });

    it.each([
      ['no such pet', staff, 999],
      ["another organisation's pet", staff, 2],
      ['a key of no organisation', { ...staff, organizationId: null }, 1],
      ['a key before organisations', { keyId: '1', scopes: ['pets:manage'] }, 1],
    ])('answers 404 for %s, and processes nothing', async (_, requester, petId) => {
      await expect(upload.execute(requester as Requester, petId as number, jpeg())).rejects.toThrow(
        new PetNotOwnedError(petId as number),
      );
      expect(images.processed).toBe(0);
      expect(storage.objects.size).toBe(0);
    });

    it('refuses a 13th photo (409) before processing it', async () => {
      await given(12);
      const stored = storage.objects.size;
      await expect(upload.execute(staff, 1, jpeg(99))).rejects.toThrow(
        'Pet 1 already has 12 photos, the most a pet may have: delete one first.',
      );
      expect(images.processed).toBe(12);
      expect(storage.objects.size).toBe(stored);
      expect(await photos.countOf(1)).toBe(12);
      expect(events.recorded).toEqual([]);
    });

    it('checks again in its transaction: the 12th taken meanwhile is a 409, and nothing is recorded', async () => {
      await given(11);
      images.during = async () => {
        images.during = undefined;
        await upload.execute(staff, 1, jpeg(50));
      };
      await expect(upload.execute(staff, 1, jpeg(51))).rejects.toThrow(PhotoLimitReachedError);
      expect(await photos.countOf(1)).toBe(12);
      expect(events.recorded).toHaveLength(1);
    });

    it('answers 404 when the pet went while its image was processed', async () => {
      images.during = async () => void pets.pets.delete(1);
      await expect(upload.execute(staff, 1, jpeg())).rejects.toThrow(PetNotOwnedError);
      expect(photos.rows).toEqual([]);
      expect(events.recorded).toEqual([]);
    });

    it.each([new UndecodableImageError(), new ImageProcessingBusyError(1)])(
      'passes on the processor’s refusal (%s) and records nothing',
      async (failure) => {
        images.failure = failure;
        await expect(upload.execute(staff, 1, jpeg())).rejects.toThrow(failure);
        expect(storage.objects.size).toBe(0);
        expect(photos.rows).toEqual([]);
        expect(events.recorded).toEqual([]);
      },
    );
  });

  describe('ReorderPhoto', () => {
    it('moves a photo to the front, the others shifting back, with a pet.updated', async () => {
      await given(4);
      const moved = await reorder.execute(staff, 1, 3, 1);
      expect(moved).toMatchObject({ id: 3, position: 1 });
      expect(await positions()).toEqual([
        [3, 1],
        [1, 2],
        [2, 3],
        [4, 4],
      ]);
      expect(events.recorded).toEqual([
        { type: 'pet.updated', data: expect.objectContaining({ id: 1, version: 6 }) },
      ]);
    });

    it('moves a photo back, the others shifting forward', async () => {
      await given(4);
      await reorder.execute(staff, 1, 1, 3);
      expect(await positions()).toEqual([
        [2, 1],
        [3, 2],
        [1, 3],
        [4, 4],
      ]);
    });

    it('changes nothing, and records nothing, for the place a photo already has', async () => {
      await given(2);
      expect(await reorder.execute(staff, 1, 2, 2)).toMatchObject({ id: 2, position: 2 });
      expect(events.recorded).toEqual([]);
      expect(pets.pets.get(1)!.version).toBe(3);
    });

    it('refuses a place beyond the photos (400), a photo of another pet or none (404)', async () => {
      await given(3);
      await expect(reorder.execute(staff, 1, 1, 4)).rejects.toThrow(PhotoPositionError);
      await expect(reorder.execute(staff, 1, 1, 0)).rejects.toThrow(PhotoPositionError);
      await expect(reorder.execute(staff, 1, 9, 1)).rejects.toThrow(new PhotoNotFoundError(1, 9));
      await expect(reorder.execute(staff, 2, 1, 1)).rejects.toThrow(PetNotOwnedError);
      expect(events.recorded).toEqual([]);
    });

    it('checks pets:manage first', async () => {
      await expect(reorder.execute({ ...staff, scopes: [] }, 1, 1, 1)).rejects.toThrow(
        InsufficientScopeError,
      );
      expect(pets.asked).toBe(0);
    });
  });

  describe('DeletePhoto', () => {
    it('removes a photo, the ones after it moving up, with a pet.updated, and its bytes', async () => {
      const [, second] = await given(3);
      await remove.execute(staff, 1, 2);
      expect(await positions()).toEqual([
        [1, 1],
        [3, 2],
      ]);
      expect(events.recorded).toEqual([
        { type: 'pet.updated', data: expect.objectContaining({ id: 1, version: 5 }) },
      ]);
      for (const key of Object.values(second.variants))
        expect(await storage.exists(key)).toBe(false);
      expect(storage.objects.size).toBe(8);
    });

    it('keeps the bytes another photo still names', async () => {
      const { photo: first } = await upload.execute(staff, 1, jpeg(5));
      const { photo: twin } = await upload.execute(staff, 1, jpeg(5));
      expect(twin.variants).toEqual(first.variants);
      await remove.execute(staff, 1, first.id);
      for (const key of Object.values(twin.variants)) expect(await storage.exists(key)).toBe(true);
    });

    it('answers once the photo is gone, even when its bytes cannot be removed', async () => {
      await given(1);
      storage.delete = () => Promise.reject(new Error('disk gone'));
      await expect(remove.execute(staff, 1, 1)).resolves.toBeUndefined();
      expect(await photos.countOf(1)).toBe(0);
    });

    it('refuses a photo it has not (404), another organisation’s pet (404), a key without the scope (403)', async () => {
      await given(1);
      await expect(remove.execute(staff, 1, 2)).rejects.toThrow(PhotoNotFoundError);
      await expect(remove.execute(staff, 2, 1)).rejects.toThrow(PetNotOwnedError);
      await expect(remove.execute({ ...staff, scopes: ['pets:write'] }, 1, 1)).rejects.toThrow(
        InsufficientScopeError,
      );
      expect(await photos.countOf(1)).toBe(1);
      expect(events.recorded).toEqual([]);
    });
  });

  describe('ForgetReleasedImages', () => {
    let released: InMemoryReleasedImages;
    let forget: ForgetReleasedImages;
    /** What deleting pet 1 does in its transaction: its photos go, their keys are released. */
    const deletePet1 = () => {
      const keys = photos.rows
        .filter((row) => row.petId === 1)
        .flatMap((row) => Object.values(row.variants));
      photos.rows = photos.rows.filter((row) => row.petId !== 1);
      released.release(...keys);
      return keys;
    };

    beforeEach(() => {
      released = new InMemoryReleasedImages();
      forget = new ForgetReleasedImages(released, photos, storage);
    });

    it('deletes the bytes of a deleted pet’s photos and forgets their releases', async () => {
      await given(2);
      const keys = deletePet1();
      expect(await forget.execute()).toBe(8);
      for (const key of keys) expect(await storage.exists(key)).toBe(false);
      expect(storage.objects.size).toBe(0);
      expect(released.rows).toEqual([]);
      expect(await forget.execute()).toBe(0);
    });

    it('keeps the bytes another pet’s photo shows (the same image: the same keys)', async () => {
      const { photo: mine } = await upload.execute(staff, 1, jpeg(7));
      const { photo: theirs } = await upload.execute({ ...staff, organizationId: 8 }, 2, jpeg(7));
      expect(theirs.variants).toEqual(mine.variants);
      await upload.execute(staff, 1, jpeg(8));
      deletePet1();
      await forget.execute();
      for (const key of Object.values(theirs.variants))
        expect(await storage.exists(key)).toBe(true);
      expect(storage.objects.size).toBe(4);
      expect(released.rows).toEqual([]);
    });

    it('keeps every release of a step whose deletion failed, for the next step', async () => {
      await given(1);
      deletePet1();
      const { delete: remove } = storage;
      storage.delete = () => Promise.reject(new Error('disk gone'));
      await expect(forget.execute()).rejects.toThrow('disk gone');
      expect(released.rows).toHaveLength(4);
      storage.delete = remove;
      expect(await forget.execute()).toBe(4);
      expect(storage.objects.size).toBe(0);
    });

    it(`takes ${RELEASES_PER_STEP} releases a step, oldest first`, async () => {
      for (let i = 0; i < RELEASES_PER_STEP + 5; i++)
        released.release(`${String(i).padStart(64, '0')}.jpg`);
      expect(await forget.execute()).toBe(RELEASES_PER_STEP);
      expect(released.rows.map(({ id }) => id)).toEqual([101, 102, 103, 104, 105]);
      expect(await forget.execute()).toBe(5);
    });
  });

  describe('GetPhotoImage', () => {
    it('serves a stored variant, says a held copy is current, and knows no other key', async () => {
      const get = new GetPhotoImage(storage);
      const [photo] = await given(1);
      const key = photo.variants.small;
      const image = await get.execute(key, false);
      expect(image).toMatchObject({ current: false, contentType: 'image/jpeg' });
      if (image.current) throw new Error('unreachable');
      expect((await readAll(image.body)).equals(storage.objects.get(key)!)).toBe(true);
      expect(await get.execute(key, true)).toEqual({ current: true });
      const unknown = `${'0'.repeat(64)}.jpg`;
      await expect(get.execute(unknown, false)).rejects.toThrow(PhotoImageNotFoundError);
      await expect(get.execute(unknown, true)).rejects.toThrow(PhotoImageNotFoundError);
    });
  });
});
