import {
  ArgumentMetadata,
  Injectable,
  PipeTransform,
  ValidationError,
  ValidationPipe,
} from '@nestjs/common';
import { ApiError } from '../errors/api-error';
import { RejectedBody } from './json-body';

function messagesOf(errors: ValidationError[], path = ''): string[] {
  return errors.flatMap((error) => {
    const property = path ? `${path}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {});
    return [...own, ...messagesOf(error.children ?? [], property)];
  });
}

/**
 * The one validation of every input: bodies, queries, path parameters and the headers an operation
 * takes (IdempotencyKey), each a DTO class with class-validator rules. No coercion, unknown
 * properties refused, every failure a 400 `validation_failed` that names the offending fields.
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    validateCustomDecorators: true,
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: false, value: false },
    exceptionFactory: (errors) =>
      new ApiError('validation_failed', messagesOf(errors).join('; ') || 'The request is invalid.'),
  });
}

/**
 * Whether a property name is one no DTO declares and class-transformer skips: the members of
 * Object.prototype (`__proto__`, `constructor`, `toString`, `valueOf`, ...) and `prototype`.
 * Whitelisting never sees them, so they would be dropped silently instead of refused.
 */
const isPrototypeName = (key: string) => key in Object.prototype || key === 'prototype';

/** Refuses prototype-named properties anywhere in a parsed body or query (bounded depth). */
function refuseForbiddenKeys(value: unknown): void {
  if (typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) return value.forEach(refuseForbiddenKeys);
  for (const key of Object.keys(value)) {
    if (isPrototypeName(key)) {
      throw new ApiError('validation_failed', `property ${key} should not exist`);
    }
    refuseForbiddenKeys((value as Record<string, unknown>)[key]);
  }
}

/** Refuses query parameters named like prototype properties. */
@Injectable()
export class QueryKeysPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type === 'query') refuseForbiddenKeys(value);
    return value;
  }
}

/** Raises the deferred body failure, and refuses a body that is not a JSON object. */
@Injectable()
export class JsonObjectBodyPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type !== 'body') return value;
    if (value instanceof RejectedBody) throw value.error;
    if (value === undefined) {
      throw new ApiError('validation_failed', 'A JSON object body is required.');
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new ApiError('validation_failed', 'The request body must be a JSON object.');
    }
    refuseForbiddenKeys(value);
    return value;
  }
}
