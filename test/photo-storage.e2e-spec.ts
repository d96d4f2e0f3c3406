import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { LocalPhotoStorage } from '../src/photos/infrastructure/local-photo-storage';
import { S3PhotoStorage, s3ClientFor } from '../src/photos/infrastructure/s3-photo-storage';
import { photoStorageContract, variantOf } from './support/photo-storage.contract';
import { S3Peer, startS3Peer, withS3PeerCredentials } from './support/peers/s3-peer';

// The S3 peer serves from this very process: on a busy machine its answers share one core with the
// tests that wait for them.
jest.setTimeout(30_000);

describe('the photo storage adapters, on a real disk and a real S3 protocol peer', () => {
  let peer: S3Peer;
  let dir: string;
  const clients: { destroy(): void }[] = [];
  const restoreEnv = withS3PeerCredentials();

  beforeAll(async () => {
    peer = await startS3Peer(['photos']);
    dir = await mkdtemp(join(tmpdir(), 'photos-'));
  });
  afterAll(async () => {
    restoreEnv();
    for (const client of clients) client.destroy();
    await peer.close();
    await rm(dir, { recursive: true, force: true });
  });

  photoStorageContract('a local directory', () => new LocalPhotoStorage(join(dir, randomUUID())));

  // A put is one PutObject: S3 keeps it whole or not at all, which s3rver does not imitate.
  photoStorageContract(
    'an S3 bucket, path-style at an endpoint',
    () => {
      const client = s3ClientFor({
        bucket: 'photos',
        endpoint: peer.endpoint,
        region: 'us-east-1',
      });
      clients.push(client);
      return new S3PhotoStorage(client, 'photos');
    },
    { atomicPutsBy: 'store' },
  );

  it('stores each S3 object with its type and a year of immutable caching, for a CDN before the bucket', async () => {
    const client = s3ClientFor({ bucket: 'photos', endpoint: peer.endpoint, region: 'us-east-1' });
    clients.push(client);
    const { key, bytes } = variantOf(randomBytes(100), 'webp');
    await new S3PhotoStorage(client, 'photos').put(key, bytes);
    const head = await client.send(new HeadObjectCommand({ Bucket: 'photos', Key: key }));
    expect(head).toMatchObject({
      ContentType: 'image/webp',
      ContentLength: 100,
      CacheControl: 'public, max-age=31536000, immutable',
    });
  });
});
