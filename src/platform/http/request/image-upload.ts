import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { ApiError } from '../errors/api-error';
import { ImageBody, IMAGE_MEDIA_TYPES, RejectedBody } from './json-body';

/**
 * An image as a client sent it: the file its bytes wait in until the operation is done (removed
 * then), their number, the first of them (`IMAGE_HEAD_BYTES`), and the type its Content-Type named.
 */
export interface UploadedImage {
  readonly path: string;
  readonly size: number;
  readonly head: Uint8Array;
  readonly contentType: string | undefined;
  /** The SHA-256 of all its bytes (hex), read from its file when asked for. */
  sha256(): Promise<string>;
}

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
}

/**
 * Handler parameter of an operation that takes an image (`@AcceptsImage()`): the body as spooled,
 * or the body parser's deferred refusal (415, 413), raised only now, after authentication and the
 * rate limit. No body at all is a 400 saying what to send. Whether the bytes are the image they
 * claim to be is the operation's to judge.
 */
export const ImageUpload = createParamDecorator(
  (_: unknown, context: ExecutionContext): UploadedImage => {
    const { body } = context.switchToHttp().getRequest<{ body?: unknown }>();
    if (body instanceof RejectedBody) throw body.error;
    if (body instanceof ImageBody && body.size > 0) {
      const { path, size, head, contentType } = body;
      return { path, size, head, contentType, sha256: () => sha256Of(path) };
    }
    throw ApiError.invalid([
      {
        field: 'body',
        issue: 'required',
        message: `An image body is required: send its bytes with Content-Type ${IMAGE_MEDIA_TYPES.join(', ')}.`,
      },
    ]);
  },
);
