import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import secureJson from 'secure-json-parse';
import { ApiError } from '../errors/api-error';
import { routeFactsOfRequest } from '../route-facts/route-facts';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth';
import { repeatedMemberPath } from './json-members';
import {
  BodyKind,
  keepPending,
  PendingBody,
  pendingBodyOf,
  UNREAD_BODY_KEPT_BYTES,
} from './pending-body';
import { markInexactNumbers, reviveInexactNumbers } from './json-numbers';
import { lingerAfterAnswer } from './lingering-close';

/** Largest request body the API reads. */
export const BODY_LIMIT_BYTES = 16 * 1024;
/**
 * Bodies up to this size are read and refused once the request is let through (so the refusal
 * carries the rate-limit headers, and the connection is kept); larger ones are refused unread.
 */
export const BODY_HARD_LIMIT_BYTES = 1024 * 1024;

/** The image types an operation that takes an image (`@AcceptsImage()`) reads. */
export const IMAGE_MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
/**
 * Image bodies up to this size are read, for the operation to refuse what is over its own limit
 * (the photos': 10 MiB); larger ones are refused unread, and a chunked one where it outgrows it.
 */
export const IMAGE_BODY_HARD_LIMIT_BYTES = 11 * 1024 * 1024;

/**
 * The bytes of an image body kept in memory while the rest waits on disk: its type and its header
 * are read from them. Enough for the header of a PNG or a WebP (at their start) and of nearly every
 * JPEG (after its metadata segments); a longer JPEG header is read from the file.
 */
export const IMAGE_HEAD_BYTES = 128 * 1024;

/** The file types an operation that takes a shelter's data file (`@AcceptsDataFile()`) reads. */
export const DATA_FILE_MEDIA_TYPES = ['text/csv', 'application/x-ndjson'] as const;
/**
 * Data files up to this size are read (the imports' limit: 50 MiB); larger ones are refused
 * unread, and a chunked one where it outgrows it.
 */
export const DATA_FILE_HARD_LIMIT_BYTES = 50 * 1024 * 1024;

/** A data file as it arrived, for an operation that takes one: its bytes and declared type. */
export class DataFileBody {
  constructor(
    readonly bytes: Buffer,
    readonly contentType: string | undefined,
  ) {}
}

/**
 * An image body as it arrived, for an operation that takes one: written to a file of the
 * instance's spool (`ImageSpool`) as it came, which is removed once the operation has answered;
 * only its first bytes are kept in memory.
 */
export class ImageBody {
  constructor(
    readonly path: string,
    readonly size: number,
    /** The first IMAGE_HEAD_BYTES of the body (all of it, if shorter). */
    readonly head: Buffer,
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

export const tooLarge = () =>
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

const unsupportedType = (request: FastifyRequest) =>
  new RejectedBody(
    new ApiError(
      'unsupported_media_type',
      `The request body must be ${
        routeFactsOfRequest(request)?.acceptsImage
          ? 'a JPEG, PNG or WebP image (image/jpeg, image/png or image/webp)'
          : routeFactsOfRequest(request)?.acceptsDataFile
            ? 'a CSV or NDJSON file (text/csv or application/x-ndjson)'
            : 'application/json'
      }, not ${request.headers['content-type'] ?? 'untyped'}.`,
    ),
  );

/** The declared Content-Length, or undefined when the body is chunked (or the header unusable). */
function declaredLengthOf(request: FastifyRequest): number | undefined {
  const header = request.headers['content-length'];
  if (request.headers['transfer-encoding'] !== undefined || header === undefined) return undefined;
  const length = Number(header);
  return Number.isSafeInteger(length) && length >= 0 ? length : undefined;
}

/**
 * Whether answering the request now must close its connection: a large body is still to come. A
 * body no parser saw (a GET's: Fastify parses none) is judged from its headers, as one left unread.
 */
function closesConnection(request: FastifyRequest): boolean {
  const pending = pendingBodyOf(request);
  if (pending) return pending.closesConnection;
  if (request.raw.complete) return false;
  return (declaredLengthOf(request) ?? Infinity) > UNREAD_BODY_KEPT_BYTES;
}

/**
 * Replaces Fastify's body parsers with parsers that read nothing: each hands Fastify a
 * `PendingBody` (JSON, or an image for the operations that take one, and only them), or the
 * refusal of a type the operation does not take, deferred like every body failure. The bytes are
 * read after the route, the key, the scope and the rate limit have let the request through
 * (`BodyAfterGateInterceptor`, docs/adr/0064).
 */
export function installJsonBodyParser(fastify: FastifyInstance): void {
  fastify.removeAllContentTypeParsers();
  // Every body is left pending, a refused one too: what is left unread decides, once answered,
  // whether the connection can be kept.
  const pending = (kind: BodyKind) => (request: FastifyRequest, payload: Readable) =>
    keepPending(
      request,
      new PendingBody(payload, kind, declaredLengthOf(request), request.headers['content-type']),
    );
  const json = pending('json');
  const image = pending('image');
  const data = pending('data');
  const unsupported = (request: FastifyRequest, payload: Readable) => {
    pending('json')(request, payload);
    return unsupportedType(request);
  };
  fastify.addContentTypeParser(
    ['application/json', 'application/merge-patch+json'],
    (request, payload, done) => {
      const mergePatch = /^\s*application\/merge-patch\+json/i.test(
        request.headers['content-type'] ?? '',
      );
      const facts = routeFactsOfRequest(request);
      done(
        null,
        !facts?.acceptsImage && !facts?.acceptsDataFile && (!mergePatch || facts?.acceptsMergePatch)
          ? json(request, payload)
          : unsupported(request, payload),
      );
    },
  );
  fastify.addContentTypeParser([...IMAGE_MEDIA_TYPES], (request, payload, done) =>
    done(
      null,
      routeFactsOfRequest(request)?.acceptsImage
        ? image(request, payload)
        : unsupported(request, payload),
    ),
  );
  fastify.addContentTypeParser([...DATA_FILE_MEDIA_TYPES], (request, payload, done) =>
    done(
      null,
      routeFactsOfRequest(request)?.acceptsDataFile
        ? data(request, payload)
        : unsupported(request, payload),
    ),
  );
  fastify.addContentTypeParser('*', (request, payload, done) =>
    done(null, unsupported(request, payload)),
  );
  // An answer sent while a large body is still to come closes the connection: Node would
  // otherwise read (and drop) the rest of it to keep the connection, as long as the client sends.
  // The close lingers, so that a client still sending its body reads the answer.
  fastify.addHook('onSend', (request, reply, payload, done) => {
    if (closesConnection(request)) {
      void reply.header('connection', 'close');
      lingerAfterAnswer(request.raw);
    }
    done(null, payload);
  });
}
