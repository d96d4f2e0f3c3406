import type { FastifyInstance, FastifyRequest } from 'fastify';
import secureJson from 'secure-json-parse';
import { ApiError } from '../errors/api-error';
import { routeFactsOfRequest } from '../route-facts/route-facts';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth';
import { repeatedMemberPath } from './json-members';
import { markInexactNumbers, reviveInexactNumbers } from './json-numbers';

/** Largest request body the API reads. */
export const BODY_LIMIT_BYTES = 16 * 1024;
/**
 * Bodies up to this size are read and refused after authentication (so the refusal carries the
 * rate-limit headers); larger ones are cut off by Fastify as they arrive, before anything else.
 */
export const BODY_HARD_LIMIT_BYTES = 1024 * 1024;

/** The image types an operation that takes an image (`@AcceptsImage()`) reads. */
export const IMAGE_MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
/**
 * Image bodies up to this size are read, for the operation to refuse what is over its own limit
 * after authentication (the photos': 10 MiB); larger ones are cut off as they arrive.
 */
export const IMAGE_BODY_HARD_LIMIT_BYTES = 11 * 1024 * 1024;

/** An image body as it arrived, for an operation that takes one: its bytes and declared type. */
export class ImageBody {
  constructor(
    readonly bytes: Buffer,
    readonly contentType: string | undefined,
  ) {}
}

/**
 * A body that could not be accepted. Parsing never fails the request by itself: the failure
 * travels as the body and is raised when a handler asks for the body, so that the contract's
 * order of checks (route, authentication, rate limit, then the body) holds.
 */
export class RejectedBody {
  constructor(readonly error: ApiError) {}
}

const tooLarge = () =>
  new RejectedBody(
    new ApiError(
      'payload_too_large',
      `The request body is larger than ${BODY_LIMIT_BYTES / 1024} KiB.`,
    ),
  );

const tooDeep = () =>
  new RejectedBody(
    new ApiError(
      'validation_failed',
      `The request body is nested deeper than ${MAX_JSON_DEPTH} levels.`,
    ),
  );

/** The body as JSON, or why it cannot be accepted. */
export function parseJson(text: string): unknown {
  if (Buffer.byteLength(text) > BODY_LIMIT_BYTES) return tooLarge();
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) return tooDeep();
  let parsed: unknown;
  try {
    const marked = markInexactNumbers(text);
    // Refuses __proto__ and constructor.prototype keys, which could reach object prototypes.
    parsed =
      marked === null
        ? secureJson.parse(text, { protoAction: 'error', constructorAction: 'error' })
        : secureJson.parse(marked, reviveInexactNumbers, {
            protoAction: 'error',
            constructorAction: 'error',
          });
  } catch (error) {
    return new RejectedBody(
      // secure-json-parse reports both kinds as SyntaxError; only the message tells them apart.
      /forbidden prototype property/.test((error as Error).message)
        ? new ApiError(
            'validation_failed',
            'The body must not contain the properties __proto__ or constructor.prototype.',
          )
        : new ApiError('malformed_json', 'The request body is not valid JSON.'),
    );
  }
  const repeated = repeatedMemberPath(text);
  return repeated === null ? parsed : repeatedMember(repeated);
}

/** A member given twice in one object: which of the two was meant cannot be told. */
const repeatedMember = (field: string) =>
  new RejectedBody(
    ApiError.invalid([
      {
        field,
        issue: 'format',
        message: `${field || 'A member with an empty name'} is given more than once in one object: each member may appear once.`,
      },
    ]),
  );

const unsupported = (request: FastifyRequest) =>
  new RejectedBody(
    new ApiError(
      'unsupported_media_type',
      `The request body must be ${
        routeFactsOfRequest(request)?.acceptsImage
          ? 'a JPEG, PNG or WebP image (image/jpeg, image/png or image/webp)'
          : 'application/json'
      }, not ${request.headers['content-type'] ?? 'untyped'}.`,
    ),
  );

/**
 * Replaces Fastify's body parsers with a JSON parser and an image parser (for the operations that
 * take an image, and only them), each deferring its failures.
 */
export function installJsonBodyParser(fastify: FastifyInstance): void {
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser(
    ['application/json', 'application/merge-patch+json'],
    { parseAs: 'string', bodyLimit: BODY_HARD_LIMIT_BYTES },
    (request, body, done) => {
      const mergePatch = /^\s*application\/merge-patch\+json/i.test(
        request.headers['content-type'] ?? '',
      );
      const facts = routeFactsOfRequest(request);
      done(
        null,
        !facts?.acceptsImage && (!mergePatch || facts?.acceptsMergePatch)
          ? parseJson(String(body))
          : unsupported(request),
      );
    },
  );
  fastify.addContentTypeParser(
    [...IMAGE_MEDIA_TYPES],
    { parseAs: 'buffer', bodyLimit: IMAGE_BODY_HARD_LIMIT_BYTES },
    (request, body, done) =>
      done(
        null,
        routeFactsOfRequest(request)?.acceptsImage
          ? new ImageBody(body as Buffer, request.headers['content-type'])
          : unsupported(request),
      ),
  );
  fastify.addContentTypeParser('*', (request, _payload, done) => done(null, unsupported(request)));
}
