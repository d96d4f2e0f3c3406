import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { ApiError } from '../errors/api-error';
import { ImageBody, IMAGE_MEDIA_TYPES, RejectedBody } from './json-body';

/** An image as a client sent it: its bytes, and the type its Content-Type named. */
export interface UploadedImage {
  readonly bytes: Uint8Array;
  readonly contentType: string | undefined;
}

/**
 * Handler parameter of an operation that takes an image (`@AcceptsImage()`): the body's bytes,
 * or the body parser's deferred refusal (415, 413), raised only now, after authentication and the
 * rate limit. No body at all is a 400 saying what to send. Whether the bytes are the image they
 * claim to be is the operation's to judge.
 */
export const ImageUpload = createParamDecorator(
  (_: unknown, context: ExecutionContext): UploadedImage => {
    const { body } = context.switchToHttp().getRequest<{ body?: unknown }>();
    if (body instanceof RejectedBody) throw body.error;
    if (body instanceof ImageBody && body.bytes.length > 0) {
      return { bytes: body.bytes, contentType: body.contentType };
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
