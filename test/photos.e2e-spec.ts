import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { PhotoStorage } from '../src/photos/application/photo-storage';
import { ImageProcessor, distinctVariants } from '../src/photos/application/image-processor';
import { expectError, request } from './support/http';
import { awayFromMinuteEnd } from './support/windows';
import { startTestApp, TestApp } from './support/test-app';
import { inFile, phoneJpeg, plain, pngWithAlpha } from './support/test-images';
import { S3Peer, startS3Peer, withS3PeerCredentials } from './support/peers/s3-peer';

const HASH = /^([0-9a-f]{64})\./;

// Images are processed and, in the last block, an S3 peer answers, in this very process.
jest.setTimeout(30_000);

/**
 * Serving the photos' variants (CONTRACT.md, "Photos"): public, immutable, content-addressed, and
 * counted in a budget of their own. What is served is put in the storage through the service's
 * own port, as an upload stores it.
 */
describe('GET /v1/photos/{file}', () => {
  let t: TestApp;
  let dir: string;
  type Stored = { key: string; bytes: Uint8Array; type: string };
  /** The variants of a 1200 × 800 JPEG, of a photo from a phone, of a PNG with alpha. */
  let jpeg: Stored[];
  let phone: Stored[];
  let webp: Stored[];

  /** Processes an image as an upload would, and stores its variants. */
  const store = async (app: TestApp, image: Buffer, format: 'jpeg' | 'png') => {
    const processed = await app.app
      .get(ImageProcessor)
      .process(await inFile(image), format, 'organization:1');
    const variants = distinctVariants(processed);
    for (const { key, bytes } of variants) await app.app.get(PhotoStorage).put(key, bytes);
    return variants.map(({ key, bytes }) => ({
      key,
      bytes,
      type: key.endsWith('.webp') ? 'image/webp' : 'image/jpeg',
    }));
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'photos-e2e-'));
    t = await startTestApp({
      PHOTO_DIR: dir,
      ANONYMOUS_PER_MINUTE: '2',
      PHOTO_GETS_PER_MINUTE: '6',
      // Behind one trusted proxy, so that each test can be a client address of its own.
      TRUST_PROXY: '1',
    });
    jpeg = await store(t, await plain(1200, 800).jpeg().toBuffer(), 'jpeg');
    phone = await store(t, await phoneJpeg(), 'jpeg');
    webp = await store(t, await pngWithAlpha(), 'png');
  });
  afterAll(async () => {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** Requests from one client address. */
  const from = (address: string) => ({
    get: (path: string) => request(t.url).get(path).set('x-forwarded-for', address).buffer(true),
    head: (path: string) => request(t.url).head(path).set('x-forwarded-for', address),
  });
  const tagOf = (key: string) => `"${HASH.exec(key)![1]}"`;

  it('answers the bytes without a key: their type, a strong ETag, cached for a year', async () => {
    await awayFromMinuteEnd();
    const client = from('198.51.100.1');
    for (const { key, bytes, type } of [jpeg[0], jpeg[3], phone[0], webp[0]]) {
      const response = await client.get(`/v1/photos/${key}`);
      expect(response.status).toBe(200);
      expect(response.headers).toMatchObject({
        'content-type': type,
        'content-length': String(bytes.length),
        'cache-control': 'public, max-age=31536000, immutable',
        etag: tagOf(key),
        'x-api-stability': 'beta',
        'x-content-type-options': 'nosniff',
      });
      expect(Buffer.compare(response.body, Buffer.from(bytes))).toBe(0);
      const metadata = await sharp(response.body).metadata();
      expect([metadata.exif, metadata.icc]).toEqual([undefined, undefined]);
    }
    expect(webp[0].type).toBe('image/webp');
  });

  it('answers HEAD with the headers alone', async () => {
    await awayFromMinuteEnd();
    const { key, bytes } = jpeg[1];
    const response = await from('198.51.100.2').head(`/v1/photos/${key}`);
    expect(response.status).toBe(200);
    expect(response.headers).toMatchObject({
      'content-type': 'image/jpeg',
      'content-length': String(bytes.length),
      etag: tagOf(key),
    });
    expect(response.body).toEqual({});
  });

  it('answers 304 without a body to an If-None-Match naming the ETag', async () => {
    await awayFromMinuteEnd();
    const { key } = jpeg[1];
    for (const field of [tagOf(key), `W/${tagOf(key)}`, `"other", ${tagOf(key)}`, '*']) {
      const response = await from('198.51.100.3')
        .get(`/v1/photos/${key}`)
        .set('if-none-match', field);
      expect(response.status).toBe(304);
      expect(response.headers).toMatchObject({
        etag: tagOf(key),
        'cache-control': 'public, max-age=31536000, immutable',
      });
      expect([response.headers['content-type'], response.body]).toEqual([undefined, {}]);
    }
    const other = await from('198.51.100.3')
      .get(`/v1/photos/${key}`)
      .set('if-none-match', '"other"');
    expect(other.status).toBe(200);
  });

  it('answers 404 for a key nothing is stored under, with or without If-None-Match', async () => {
    await awayFromMinuteEnd();
    const unknown = `${'0'.repeat(64)}.jpg`;
    expectError(await from('198.51.100.4').get(`/v1/photos/${unknown}`), 404, 'not_found');
    expectError(
      await from('198.51.100.4').get(`/v1/photos/${unknown}`).set('if-none-match', '*'),
      404,
      'not_found',
    );
    // The bytes of a key under another extension are another key's.
    const { key } = jpeg[0];
    expectError(
      await from('198.51.100.4').get(`/v1/photos/${key.replace('.jpg', '.png')}`),
      404,
      'not_found',
    );
  });

  it.each([
    ['a short hash', `${'a'.repeat(63)}.jpg`],
    ['capitals', `${'A'.repeat(64)}.jpg`],
    ['another extension', `${'a'.repeat(64)}.gif`],
    ['no extension', 'a'.repeat(64)],
    ['a path', `..%2F${'a'.repeat(61)}.jpg`],
  ])('answers 400 for a file name that is no key (%s)', async (_, file) => {
    await awayFromMinuteEnd();
    const response = expectError(
      await from('198.51.100.5').get(`/v1/photos/${file}`),
      400,
      'validation_failed',
    );
    expect(response.body.message).toMatch(/file must be a SHA-256/);
  });

  it('counts image GETs per address in their own budget, apart from the anonymous one', async () => {
    await awayFromMinuteEnd();
    const client = from('198.51.100.6');
    const image = `/v1/photos/${jpeg[0].key}`;
    // The address's anonymous budget (2 a minute) spent: its image GETs still pass.
    for (let i = 0; i < 2; i++) expect((await client.get('/v1/pets')).status).toBe(401);
    expectError(await client.get('/v1/pets'), 429, 'rate_limited');
    const remaining = [];
    for (let i = 0; i < 6; i++) {
      const response = await client.get(image);
      expect(response.status).toBe(200);
      expect(response.headers['x-ratelimit-limit']).toBe('6');
      remaining.push(response.headers['x-ratelimit-remaining']);
    }
    expect(remaining).toEqual(['5', '4', '3', '2', '1', '0']);
    const refused = expectError(await client.get(image), 429, 'rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // And another address's images, and this address's anonymous budget, owe nothing to them.
    expect((await from('198.51.100.7').get(image)).status).toBe(200);
    const fresh = from('198.51.100.8');
    for (let i = 0; i < 6; i++) await fresh.get(image);
    expect((await fresh.get('/v1/pets')).status).toBe(401);
  });

  it('charges nothing to a key sent with an image GET', async () => {
    await awayFromMinuteEnd();
    const { key: apiKey } = await t.issueKey({ plan: 'free', limits: undefined });
    const keyed = (path: string) =>
      request(t.url)
        .get(path)
        .set('authorization', `Bearer ${apiKey}`)
        .set('x-forwarded-for', '198.51.100.9');
    const before = (await keyed('/v1/pets')).headers['x-ratelimit-remaining'];
    expect((await keyed(`/v1/photos/${jpeg[0].key}`).buffer(true)).status).toBe(200);
    const after = (await keyed('/v1/pets')).headers['x-ratelimit-remaining'];
    expect(Number(before) - Number(after)).toBe(1);
  });
});

describe('GET /v1/photos/{file} from an S3 bucket', () => {
  let peer: S3Peer;
  let t: TestApp;
  const restoreEnv = withS3PeerCredentials();

  beforeAll(async () => {
    peer = await startS3Peer(['pet-photos']);
    t = await startTestApp({ PHOTO_S3_BUCKET: 'pet-photos', PHOTO_S3_ENDPOINT: peer.endpoint });
  });
  afterAll(async () => {
    await t.close();
    await peer.close();
    restoreEnv();
  });

  it('serves what the service stored in the bucket', async () => {
    const processed = await t.app
      .get(ImageProcessor)
      .process(await inFile(await phoneJpeg()), 'jpeg', 'organization:1');
    const { key, bytes } = processed.sizes.full;
    await t.app.get(PhotoStorage).put(key, bytes);
    const response = await request(t.url).get(`/v1/photos/${key}`).buffer(true);
    expect(response.status).toBe(200);
    expect(response.headers).toMatchObject({
      'content-type': 'image/jpeg',
      etag: `"${key.slice(0, 64)}"`,
    });
    expect(Buffer.compare(response.body, Buffer.from(bytes))).toBe(0);
  });
});
