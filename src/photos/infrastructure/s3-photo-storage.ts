import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { OnApplicationShutdown } from '@nestjs/common';
import type { Readable } from 'node:stream';
import { PhotoStorage, StoredPhoto } from '../application/photo-storage';
import { mediaTypeOfKey, PhotoKey } from '../domain/photo-key';

/** A key's bytes never change: whoever serves them (the bucket, a CDN) may cache them for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

const isMissing = (error: unknown) => {
  const { name, $metadata } = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return name === 'NoSuchKey' || name === 'NotFound' || $metadata?.httpStatusCode === 404;
};

export interface S3Location {
  bucket: string;
  /** An S3-compatible service (MinIO, R2, Ceph, ...), addressed path-style; AWS itself without. */
  endpoint?: string;
  region: string;
}

/**
 * An S3 client as the standard AWS variables configure it (credentials: AWS_ACCESS_KEY_ID and
 * AWS_SECRET_ACCESS_KEY, a profile, or the instance's role). Checksums only where an operation
 * requires them: the SDK's default trailing checksums are not understood by every S3-compatible
 * service.
 */
export function s3ClientFor({ endpoint, region }: S3Location): S3Client {
  return new S3Client({
    region,
    endpoint,
    forcePathStyle: endpoint !== undefined,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: { connectionTimeout: 2_000, requestTimeout: 10_000 },
  });
}

/**
 * The variants as objects of one bucket, named by their keys, each with its type and a cache
 * lifetime of a year (PHOTO_PUBLIC_BASE_URL may point clients at the bucket or a CDN before it).
 * A put is atomic in S3 itself: an object is there whole or not at all.
 */
export class S3PhotoStorage extends PhotoStorage implements OnApplicationShutdown {
  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
  ) {
    super();
  }

  async put(key: PhotoKey, bytes: Uint8Array): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: bytes,
        ContentLength: bytes.length,
        ContentType: mediaTypeOfKey(key),
        CacheControl: IMMUTABLE,
      }),
    );
  }

  async get(key: PhotoKey): Promise<StoredPhoto | null> {
    try {
      const object = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: key }),
      );
      return {
        contentType: object.ContentType ?? mediaTypeOfKey(key),
        length: object.ContentLength!,
        body: object.Body as Readable,
      };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async exists(key: PhotoKey): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }

  async delete(key: PhotoKey): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  /** Closes the client's kept-alive connections. */
  onApplicationShutdown(): void {
    this.client.destroy();
  }
}
