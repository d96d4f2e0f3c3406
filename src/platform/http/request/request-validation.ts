import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { ClassConstructor, plainToInstance } from 'class-transformer';
import {
  getMetadataStorage,
  validate,
  validateSync,
  ValidationError,
  ValidatorOptions,
} from 'class-validator';
import { ApiError } from '../errors/api-error';
import { RejectedBody } from './json-body';
import { ValidationCache } from './validation-cache';

function messagesOf(errors: ValidationError[], path = ''): string[] {
  return errors.flatMap((error) => {
    const property = path ? `${path}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {});
    return [...own, ...messagesOf(error.children ?? [], property)];
  });
}

const messageOf = (errors: ValidationError[]) =>
  messagesOf(errors).join('; ') || 'The request is invalid.';

/** No coercion of types, and unknown properties refused rather than dropped. */
const VALIDATOR_OPTIONS: ValidatorOptions = {
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: true,
  validationError: { target: false, value: false },
};
const TRANSFORM_OPTIONS = { enableImplicitConversion: false };

/** Parameter types that are no DTO: passed on as they are (as Nest's ValidationPipe does). */
const SCALAR_TYPES = new Set<unknown>([String, Boolean, Number, Array, Object, Buffer, Date]);

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

/** The body a handler takes: the deferred parse failure raised, anything but a JSON object refused. */
function jsonObjectBody(value: unknown): object {
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

/** A named scalar path or query parameter (`@Param('id') id: number`), converted as Nest does. */
function scalarParameter(value: unknown, { type, metatype, data }: ArgumentMetadata): unknown {
  if (!data || (type !== 'param' && type !== 'query') || value === undefined) return value;
  if (metatype === Boolean) return value === true || value === 'true';
  if (metatype === Number) return +(value as string);
  if (metatype === String) return String(value);
  return value;
}

/**
 * The one validation of every input: bodies, queries, path parameters and the headers an operation
 * takes (IdempotencyKey), each a DTO class with class-validator rules. No coercion, unknown
 * properties refused, every failure a 400 `validation_failed` that names the offending fields.
 * A body must be a JSON object (its deferred parse failure is raised here, after the guards), and
 * a body or query may not name a prototype property anywhere.
 *
 * One pipe, validating synchronously: Nest's ValidationPipe behind two pipes of our own cost three
 * pipe calls and an await per parameter, and class-validator's `validate` a promise per rule. A DTO
 * class with an asynchronous rule (none has one) is still validated with `validate`. Path and
 * query inputs a client repeats are answered from a cache of earlier results (ValidationCache).
 */
@Injectable()
export class RequestValidationPipe implements PipeTransform {
  private readonly asynchronous = new Map<ClassConstructor<object>, boolean>();

  private cache: ValidationCache | null = new ValidationCache();

  /** The same pipe without its cache: every input validated afresh (what the cache must equal). */
  static uncached(): RequestValidationPipe {
    const pipe = new RequestValidationPipe();
    pipe.cache = null;
    return pipe;
  }

  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type === 'body') value = jsonObjectBody(value);
    else if (metadata.type === 'query') refuseForbiddenKeys(value);
    const metatype = metadata.metatype as ClassConstructor<object> | undefined;
    if (!metatype || SCALAR_TYPES.has(metatype)) return scalarParameter(value, metadata);
    if (typeof (value ?? {}) !== 'object') {
      throw new ApiError('validation_failed', 'Validation failed (object is expected)');
    }
    if (this.hasAsynchronousRules(metatype)) {
      const entity = plainToInstance(metatype, value ?? {}, TRANSFORM_OPTIONS);
      return validate(entity, VALIDATOR_OPTIONS).then((errors) => this.valid(entity, errors));
    }
    const key =
      this.cache && (metadata.type === 'query' || metadata.type === 'param')
        ? this.cache.keyOf(value)
        : undefined;
    if (key !== undefined) return this.validRemembered(metatype, key, value);
    const entity = plainToInstance(metatype, value ?? {}, TRANSFORM_OPTIONS);
    return this.valid(entity, validateSync(entity, VALIDATOR_OPTIONS));
  }

  /** The answer for an input the cache may know; validated, and remembered, if it does not. */
  private validRemembered(metatype: ClassConstructor<object>, key: string, value: unknown): object {
    const cache = this.cache!;
    const recalled = cache.recall(metatype, key);
    if (recalled?.valid) return recalled.dto;
    if (recalled) throw new ApiError('validation_failed', recalled.message);
    const entity = plainToInstance(metatype, value, TRANSFORM_OPTIONS);
    const errors = validateSync(entity, VALIDATOR_OPTIONS);
    if (errors.length > 0) {
      const message = messageOf(errors);
      cache.rememberInvalid(metatype, key, message);
      throw new ApiError('validation_failed', message);
    }
    cache.rememberValid(metatype, key, entity);
    return entity;
  }

  private valid(entity: object, errors: ValidationError[]): object {
    if (errors.length > 0) throw new ApiError('validation_failed', messageOf(errors));
    return entity;
  }

  /** Whether a rule of the class (not of classes nested in it) is asynchronous; asked once a class. */
  private hasAsynchronousRules(metatype: ClassConstructor<object>): boolean {
    let answer = this.asynchronous.get(metatype);
    if (answer === undefined) {
      const storage = getMetadataStorage();
      answer = storage
        .getTargetValidationMetadatas(metatype, '', true, false)
        .some((rule) =>
          storage.getTargetValidatorConstraints(rule.constraintCls).some(({ async }) => async),
        );
      this.asynchronous.set(metatype, answer);
    }
    return answer;
  }
}
