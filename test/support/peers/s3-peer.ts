import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { portToListenOn } from './processes';

/** A running S3 protocol peer, holding the buckets it was started with. */
export interface S3Peer {
  /** Its address, for PHOTO_S3_ENDPOINT. */
  endpoint: string;
  close(): Promise<void>;
}

/**
 * s3rver (an npm package: nothing to install) in this process, on a free loopback port, its
 * objects in a temporary directory. It speaks enough of S3 for the photo storage (create bucket,
 * put, get, head, delete, with types and cache headers), but checks no signature: a wrong secret
 * is accepted, so credential errors cannot be tested against it (docs/adr/0043). It knows one
 * access key id, `S3RVER` (withS3PeerCredentials).
 */
export async function startS3Peer(buckets: string[]): Promise<S3Peer> {
  const directory = await mkdtemp(join(tmpdir(), 's3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: await portToListenOn(),
    silent: true,
    directory,
    configureBuckets: buckets.map((name) => ({ name })),
  });
  const { port } = (await server.run()) as { port: number };
  return {
    endpoint: `http://127.0.0.1:${port}`,
    close: async () => {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/**
 * Sets the standard AWS variables to the one key id s3rver knows (any other is InvalidAccessKeyId;
 * the secret is never checked); returns what puts them back.
 */
export function withS3PeerCredentials(): () => void {
  const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
  process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
  process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
  return () => {
    for (const [name, value] of [
      ['AWS_ACCESS_KEY_ID', saved.id],
      ['AWS_SECRET_ACCESS_KEY', saved.secret],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
}
