import { BadRequestException, HttpException, NotFoundException } from '@nestjs/common';
import { PetNotFoundError } from '../../../pets/domain/pet.errors';
import { ImageProcessingBusyError } from '../../../photos/domain/photo.errors';
import { ApiError } from './api-error';
import { toErrorResponse } from './error-mapping';

describe('toErrorResponse', () => {
  it('renders an unexpected error as a bare 500 that leaks nothing', () => {
    const error = new Error('SELECT * FROM secrets WHERE password = hunter2');
    const response = toErrorResponse(error);
    expect(response).toEqual({
      status: 500,
      code: 'internal_error',
      message: 'An unexpected error occurred.',
      headers: {},
      unexpected: true,
    });
  });

  it('answers a deadlock or serialization failure left after the retries with 503, never 500', () => {
    for (const code of ['40P01', '40001']) {
      const response = toErrorResponse(Object.assign(new Error('deadlock detected'), { code }));
      expect(response).toMatchObject({
        status: 503,
        code: 'service_unavailable',
        headers: { 'retry-after': '1' },
      });
      expect(response.message).not.toMatch(/deadlock/);
    }
  });

  it('maps domain errors by their code', () => {
    expect(toErrorResponse(new PetNotFoundError(4))).toMatchObject({
      status: 404,
      code: 'not_found',
      message: 'No pet with id 4.',
    });
  });

  it('sends the Retry-After of a domain error that refuses for now', () => {
    expect(toErrorResponse(new ImageProcessingBusyError(2))).toEqual({
      status: 503,
      code: 'service_unavailable',
      message: 'Too many images are being processed; retry in 2 s.',
      headers: { 'retry-after': '2' },
      unexpected: false,
    });
    expect(toErrorResponse(new PetNotFoundError(4)).headers).toEqual({});
  });

  it('keeps the status, code, message and headers of an ApiError', () => {
    expect(toErrorResponse(new ApiError('method_not_allowed', 'no', { allow: 'GET' }))).toEqual({
      status: 405,
      code: 'method_not_allowed',
      message: 'no',
      headers: { allow: 'GET' },
      unexpected: false,
    });
  });

  it('takes the code a library named in an HttpException body', () => {
    const error = new HttpException({ code: 'key_temporarily_banned', message: 'banned' }, 429);
    expect(toErrorResponse(error)).toMatchObject({
      status: 429,
      code: 'key_temporarily_banned',
      message: 'banned',
    });
  });

  it('derives the code from the status when none was named', () => {
    expect(toErrorResponse(new NotFoundException('Cannot GET /x'))).toMatchObject({
      status: 404,
      code: 'not_found',
    });
    expect(toErrorResponse(new BadRequestException(['a is bad', 'b is bad']))).toMatchObject({
      status: 400,
      code: 'validation_failed',
      message: 'a is bad; b is bad',
    });
  });

  it('maps Fastify transport errors to their codes', () => {
    expect(toErrorResponse({ code: 'FST_ERR_CTP_BODY_TOO_LARGE', statusCode: 413 })).toMatchObject({
      status: 413,
      code: 'payload_too_large',
    });
  });

  it('answers 503 with Retry-After when the database is unreachable', () => {
    const error = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
      code: 'ECONNREFUSED',
    });
    expect(toErrorResponse(error)).toMatchObject({
      status: 503,
      code: 'service_unavailable',
      headers: { 'retry-after': '5' },
    });
  });

  it('answers a full disk or quota with 503 and Retry-After, logged as a fault of the service', () => {
    for (const code of ['ENOSPC', 'EDQUOT']) {
      // As fs reports a write to the upload spool or the photo directory that found no room.
      const error = Object.assign(new Error(`${code}: no space left on device, write`), { code });
      expect(toErrorResponse(error)).toMatchObject({
        status: 503,
        code: 'service_unavailable',
        headers: { 'retry-after': '60' },
        unexpected: true,
      });
    }
  });

  it('tells a client that aborted its upload from a database whose connection was reset', () => {
    // Node's request stream, when the client closes the connection mid-body.
    const aborted = Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
    expect(toErrorResponse(aborted)).toMatchObject({
      status: 400,
      code: 'malformed_json',
      unexpected: false,
    });
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    expect(toErrorResponse(reset)).toMatchObject({ status: 503, code: 'service_unavailable' });
  });

  it('treats an HttpException naming a code outside the catalogue as unexpected', () => {
    const error = new HttpException({ code: 'teapot', message: 'short and stout' }, 418);
    expect(toErrorResponse(error)).toMatchObject({
      status: 500,
      code: 'internal_error',
      unexpected: true,
    });
  });

  it('answers with the status of the code, whoever raised it', () => {
    expect(toErrorResponse(new HttpException({ code: 'gone', message: 'x' }, 400))).toMatchObject({
      status: 410,
      code: 'gone',
    });
  });

  it('treats an HttpException of a status outside the code set as unexpected', () => {
    expect(toErrorResponse(new HttpException('teapot', 418))).toMatchObject({
      status: 500,
      code: 'internal_error',
    });
  });
});
