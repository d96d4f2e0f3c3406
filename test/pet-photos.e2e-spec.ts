import { otherShelter } from './support/shelters';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { apiClient, expectError, request } from './support/http';
import { startTestApp, TestApp } from './support/test-app';
import { phoneJpeg, plain, pngWithAlpha, truncated } from './support/test-images';
import { S3Peer, startS3Peer, withS3PeerCredentials } from './support/peers/s3-peer';
import { PhotoStorage } from '../src/photos/application/photo-storage';

const BASE = 'https://pets.example/v1';
const ADMIN_TOKEN = 'pet-photos-suite-admin-token-0123456789abcdef';

// Images are decoded and resized by the service's image worker, forked from the sources (ADR 0063).
jest.setTimeout(60_000);

type Client = ReturnType<typeof apiClient>;
interface Photo {
  id: number;
  position: number;
  width: number;
  height: number;
  urls: Record<'small' | 'medium' | 'large' | 'full', string>;
}

/**
 * An animal's photos (CONTRACT.md "Animals worth adopting (v1.3)", "Photos"): uploaded by its
 * organisation's staff alone, judged from the bytes, stripped and turned upright, shown on the
 * animal (a new version, `pet.updated`), moved and removed, at most 12; `hasPhotos` finds them.
 */
describe('/v1/pets/{petId}/photos', () => {
  let t: TestApp;
  let dir: string;
  let staff: Client;
  let otherStaff: Client;
  let writer: Client;

  const upload = (client: Client, petId: number, image: Buffer, type = 'image/jpeg') =>
    client.post(`/v1/pets/${petId}/photos`).set('content-type', type).send(image);
  const newPet = async (client: Client = staff) =>
    (await client.post('/v1/pets').send({ name: 'Rex', categoryId: 1 }).expect(201)).body as {
      id: number;
      version: number;
    };
  const petOf = async (id: number) => (await staff.get(`/v1/pets/${id}`).expect(200)).body;
  /** The path of one of the service's own image URLs (PUBLIC_BASE_URL ends in /v1). */
  const imagePath = (url: string) => `/v1${url.slice(BASE.length)}`;
  const lastEventOf = async (petId: number) =>
    (
      await t.dataSource.query(
        `SELECT type, data FROM events WHERE data ->> 'id' = $1 ORDER BY id DESC LIMIT 1`,
        [String(petId)],
      )
    )[0] as { type: string; data: { version: number; photos: Photo[] } };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pet-photos-e2e-'));
    t = await startTestApp({ ADMIN_TOKEN, PUBLIC_BASE_URL: BASE, PHOTO_DIR: dir });
    staff = apiClient(t.url, t.auth);
    otherStaff = (await otherShelter(t, ADMIN_TOKEN, { name: 'Moor Rescue', city: 'York' })).staff;
    writer = apiClient(
      t.url,
      (await t.issueKey({ organizationId: '1', scopes: ['pets:read', 'pets:write'] })).auth,
    );
  });
  afterAll(async () => {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('adds a photo: four sizes at the images base, served, shown on the animal as a new version with its pet.updated', async () => {
    const pet = await newPet();
    const response = await upload(staff, pet.id, await plain(1200, 800).jpeg().toBuffer());
    expect(response.status).toBe(201);
    const photo = response.body as Photo;
    expect(photo).toEqual({
      id: expect.any(Number),
      position: 1,
      width: 1200,
      height: 800,
      urls: {
        small: expect.stringMatching(/^https:\/\/pets\.example\/v1\/photos\/[0-9a-f]{64}\.jpg$/),
        medium: expect.any(String),
        large: expect.any(String),
        full: expect.any(String),
      },
    });
    expect(Object.keys(photo.urls)).toEqual(['small', 'medium', 'large', 'full']);
    const widths = [];
    for (const url of Object.values(photo.urls)) {
      const image = await request(t.url).get(imagePath(url)).buffer(true).expect(200);
      expect(image.headers['content-type']).toBe('image/jpeg');
      widths.push((await sharp(image.body as Buffer).metadata()).width);
    }
    expect(widths).toEqual([100, 300, 600, 1200]);
    const shown = await petOf(pet.id);
    expect(shown.photos).toEqual([photo]);
    expect(shown.version).toBe(pet.version + 1);
    expect(await lastEventOf(pet.id)).toEqual({
      type: 'pet.updated',
      data: expect.objectContaining({ version: pet.version + 1, photos: [photo] }),
    });
  });

  it('turns a phone’s photo upright and keeps none of its metadata', async () => {
    const pet = await newPet();
    const photo = (await upload(staff, pet.id, await phoneJpeg()).expect(201)).body as Photo;
    expect([photo.width, photo.height]).toEqual([20, 40]);
    const image = await request(t.url).get(imagePath(photo.urls.full)).buffer(true).expect(200);
    const metadata = await sharp(image.body as Buffer).metadata();
    expect([metadata.width, metadata.height]).toEqual([20, 40]);
    expect([metadata.exif, metadata.icc, metadata.xmp, metadata.orientation]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('takes a PNG or a WebP as well, judged from the bytes', async () => {
    const pet = await newPet();
    await upload(staff, pet.id, await pngWithAlpha(), 'image/png').expect(201);
    await upload(staff, pet.id, await plain(50, 50).webp().toBuffer(), 'image/webp').expect(201);
    expect((await petOf(pet.id)).photos.map((p: Photo) => p.position)).toEqual([1, 2]);
  });

  it('refuses bytes that are not the type they claim, or no image at all (415), and a body that does not decode (400)', async () => {
    const pet = await newPet();
    const jpeg = await plain(64, 64).jpeg().toBuffer();
    expectError(await upload(staff, pet.id, jpeg, 'image/png'), 415, 'unsupported_media_type');
    expectError(
      await upload(staff, pet.id, Buffer.from('GIF89a not really'), 'image/gif'),
      415,
      'unsupported_media_type',
    );
    expectError(
      await staff.post(`/v1/pets/${pet.id}/photos`).send({ image: 'base64?' }),
      415,
      'unsupported_media_type',
    );
    expectError(
      await upload(staff, pet.id, Buffer.from('not an image at all'), 'image/jpeg'),
      415,
      'unsupported_media_type',
    );
    expectError(
      await upload(staff, pet.id, truncated(await plain(800, 600).png().toBuffer()), 'image/png'),
      400,
      'validation_failed',
    );
    expectError(
      await staff.post(`/v1/pets/${pet.id}/photos`).set('content-type', 'image/jpeg'),
      400,
      'validation_failed',
    );
    const unchanged = await petOf(pet.id);
    expect([unchanged.photos, unchanged.version]).toEqual([[], pet.version]);
  });

  it('refuses an image over 10 MiB (413) and refuses images on an operation that takes JSON (415)', async () => {
    const pet = await newPet();
    const huge = Buffer.concat([
      await plain(64, 64).jpeg().toBuffer(),
      Buffer.alloc(10 * 1024 * 1024),
    ]);
    expectError(await upload(staff, pet.id, huge), 413, 'payload_too_large');
    const jpeg = await plain(64, 64).jpeg().toBuffer();
    expectError(
      await staff.post('/v1/pets').set('content-type', 'image/jpeg').send(jpeg),
      415,
      'unsupported_media_type',
    );
  });

  it('lets only the staff of the animal’s organisation change its photos: 403 without pets:manage, 404 for another’s', async () => {
    const pet = await newPet();
    const jpeg = await plain(64, 64).jpeg().toBuffer();
    const photo = (await upload(staff, pet.id, jpeg).expect(201)).body as Photo;
    expectError(await upload(writer, pet.id, jpeg), 403, 'forbidden');
    expectError(await upload(otherStaff, pet.id, jpeg), 404, 'not_found');
    expectError(
      await otherStaff.patch(`/v1/pets/${pet.id}/photos/${photo.id}`).send({ position: 1 }),
      404,
      'not_found',
    );
    expectError(await otherStaff.delete(`/v1/pets/${pet.id}/photos/${photo.id}`), 404, 'not_found');
    expectError(await upload(staff, 9_007_199_254_740_991, jpeg), 404, 'not_found');
    expectError(await upload(staff, Number.MAX_SAFE_INTEGER + 2, jpeg), 404, 'not_found');
    const unchanged = await petOf(pet.id);
    expect([unchanged.photos, unchanged.version]).toEqual([[photo], pet.version + 1]);
  });

  it('moves a photo and removes one, the others closing up, each a new version; its images go when no photo shows them', async () => {
    const pet = await newPet();
    const photos: Photo[] = [];
    for (const width of [64, 65, 66]) {
      photos.push((await upload(staff, pet.id, await plain(width, 40).jpeg().toBuffer())).body);
    }
    const [a, b, c] = photos;
    const moved = await staff.patch(`/v1/pets/${pet.id}/photos/${c.id}`).send({ position: 1 });
    expect(moved.status).toBe(200);
    expect(moved.body).toEqual({ ...c, position: 1 });
    expect((await petOf(pet.id)).photos.map((p: Photo) => p.id)).toEqual([c.id, a.id, b.id]);
    for (const position of [0, 4, 1.5, '2']) {
      expectError(
        await staff.patch(`/v1/pets/${pet.id}/photos/${a.id}`).send({ position }),
        400,
        'validation_failed',
      );
    }
    await staff.delete(`/v1/pets/${pet.id}/photos/${a.id}`).expect(204);
    const after = await petOf(pet.id);
    expect(after.photos.map((p: Photo) => [p.id, p.position])).toEqual([
      [c.id, 1],
      [b.id, 2],
    ]);
    expect(after.version).toBe(pet.version + 5);
    await request(t.url).get(imagePath(a.urls.full)).expect(404);
    expectError(await staff.delete(`/v1/pets/${pet.id}/photos/${a.id}`), 404, 'not_found');
    expect(await lastEventOf(pet.id)).toEqual({
      type: 'pet.updated',
      data: expect.objectContaining({ version: after.version, photos: after.photos }),
    });
  });

  it('holds at most 12 photos an animal (409 limit_reached)', async () => {
    const pet = await newPet();
    const jpeg = await plain(32, 32).jpeg().toBuffer();
    for (let i = 0; i < 12; i++) await upload(staff, pet.id, jpeg).expect(201);
    expectError(await upload(staff, pet.id, jpeg), 409, 'limit_reached');
    expect((await petOf(pet.id)).photos).toHaveLength(12);
  });

  it('stores one photo for retries under one Idempotency-Key', async () => {
    const pet = await newPet();
    const jpeg = await plain(70, 70).jpeg().toBuffer();
    const send = () =>
      upload(staff, pet.id, jpeg).set('idempotency-key', `photo-${pet.id}`).expect(201);
    const first = await send();
    const retry = await send();
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect((await petOf(pet.id)).photos).toEqual([first.body]);
  });

  it('finds the animals with a photo (hasPhotos=true), carried in Link; anything but true is a 400', async () => {
    const pets = [await newPet(), await newPet(), await newPet()];
    await upload(staff, pets[1].id, await plain(40, 40).jpeg().toBuffer()).expect(201);
    await upload(otherStaff, (await newPet(otherStaff)).id, await plain(40, 40).jpeg().toBuffer());
    const found: number[] = [];
    let next: string | undefined = `/v1/pets?hasPhotos=true&limit=1&after=${pets[0].id - 1}`;
    while (next) {
      const page = await staff.get(next).expect(200);
      for (const animal of page.body) {
        expect(animal.photos.length).toBeGreaterThan(0);
        found.push(animal.id);
      }
      const link = page.headers.link as string | undefined;
      next = link?.match(/^<([^>]+)>; rel="next"$/)?.[1].replace(BASE, '/v1');
      if (next) expect(next).toContain('hasPhotos=true');
    }
    expect(found).toHaveLength(2);
    expect(found).toContain(pets[1].id);
    expect(found).not.toContain(pets[0].id);
    expect(found).not.toContain(pets[2].id);
    for (const value of ['false', 'yes', '']) {
      expectError(await staff.get(`/v1/pets?hasPhotos=${value}`), 400, 'validation_failed');
    }
  });
});

describe('an animal’s photos kept in S3 and served from elsewhere (PHOTO_PUBLIC_BASE_URL)', () => {
  let peer: S3Peer;
  let t: TestApp;
  const restoreEnv = withS3PeerCredentials();

  beforeAll(async () => {
    peer = await startS3Peer(['pet-photos-cdn']);
    t = await startTestApp({
      PHOTO_S3_BUCKET: 'pet-photos-cdn',
      PHOTO_S3_ENDPOINT: peer.endpoint,
      PHOTO_PUBLIC_BASE_URL: 'https://cdn.example/pets',
    });
  });
  afterAll(async () => {
    await t.close();
    await peer.close();
    restoreEnv();
  });

  it('stores the images in the bucket and answers URLs at the public base, on the photo and on the animal', async () => {
    const staff = apiClient(t.url, t.auth);
    const pet = (await staff.post('/v1/pets').send({ name: 'Rex', categoryId: 1 }).expect(201))
      .body as { id: number };
    const photo = (
      await staff
        .post(`/v1/pets/${pet.id}/photos`)
        .set('content-type', 'image/jpeg')
        .send(await plain(400, 300).jpeg().toBuffer())
        .expect(201)
    ).body as Photo;
    for (const url of Object.values(photo.urls)) {
      const key = /^https:\/\/cdn\.example\/pets\/([0-9a-f]{64}\.jpg)$/.exec(url)?.[1];
      expect(key).toBeDefined();
      expect(await t.app.get(PhotoStorage).exists(key!)).toBe(true);
    }
    expect((await staff.get(`/v1/pets/${pet.id}`).expect(200)).body.photos).toEqual([photo]);
  });
});
