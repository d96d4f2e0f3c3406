import { Injectable, PipeTransform } from '@nestjs/common';
import { ApiError } from '../../platform/http/errors/api-error';
import { INT64_MAX, parseInt64 } from '../../platform/http/request/int64';

/** Parses a pet id exactly: an integer from 1 to 2^63 - 1, as text, never rounded. */
@Injectable()
export class PetIdPipe implements PipeTransform<string, bigint> {
  transform(value: string): bigint {
    const id = parseInt64(value, 1n);
    if (id === null) {
      throw new ApiError('validation_failed', `petId must be an integer from 1 to ${INT64_MAX}.`);
    }
    return id;
  }
}
