import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { ApiError } from '../errors/api-error';
import { DATA_FILE_MEDIA_TYPES, DataFileBody, RejectedBody } from './json-body';

/** A shelter's file as a client sent it: its bytes, and its media type (without parameters). */
export interface UploadedDataFile {
  readonly bytes: Buffer;
  readonly mediaType: (typeof DATA_FILE_MEDIA_TYPES)[number];
}

/**
 * Handler parameter of an operation that takes a data file (`@AcceptsDataFile()`): the body's
 * bytes, undefined without one, or the body parser's deferred refusal (415, 413), raised only
 * now, after authentication, the scope and the rate limit.
 */
export const DataFile = createParamDecorator(
  (_: unknown, context: ExecutionContext): UploadedDataFile | undefined => {
    const { body } = context.switchToHttp().getRequest<{ body?: unknown }>();
    if (body instanceof RejectedBody) throw body.error;
    if (!(body instanceof DataFileBody) || body.bytes.length === 0) return undefined;
    const mediaType = DATA_FILE_MEDIA_TYPES.find((type) =>
      (body.contentType ?? '').toLowerCase().startsWith(type),
    )!;
    return { bytes: body.bytes, mediaType };
  },
);

/**
 * The file, or a 400 saying what to send. Called in the handler: the parameters resolve together,
 * and a bad query parameter must be the one named when both are wrong (a request with only that
 * member wrong is refused for it alone).
 */
export function requiredDataFile(file: UploadedDataFile | undefined): UploadedDataFile {
  if (file) return file;
  throw ApiError.invalid([
    {
      field: 'body',
      issue: 'required',
      message: `A file is required: send its bytes with Content-Type ${DATA_FILE_MEDIA_TYPES.join(' or ')}.`,
    },
  ]);
}
