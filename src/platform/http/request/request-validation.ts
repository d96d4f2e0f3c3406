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
import { clientTextProblem } from './client-text';
import { RejectedBody } from './json-body';
import { ParsedQuery, QUERY_REFUSAL } from './strict-query';
import { ValidationCache } from './validation-cache';
import { InputKind, validationDetails } from './validation-details';

/**
 * No coercion of types, and unknown properties refused rather than dropped. The errors keep the
 * object and the value each is about, for the details (what its class knows, whether it was
 * absent); neither reaches a client.
 */
const VALIDATOR_OPTIONS: ValidatorOptions = {
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: true,
  validationError: { target: true, value: true },
};
const TRANSFORM_OPTIONS = { enableImplicitConversion: false };

/** The refusal of an input class-validator found errors in: one detail per input and issue. */
function invalid(errors: ValidationError[], input: InputKind): ApiError {
  const details = validationDetails(errors, input);
  return details.length > 0
    ? ApiError.invalid(details)
    : new ApiError('validation_failed', 'The request is invalid.');
}

/**
 * The entity, once its class's rules and then the one character rule for every string in it
 * (client-text.ts) hold: a member's own rule speaks first (a name of only white space is told
 * so), the character rule then covers every member, whatever its own rules are.
 */
function valid(entity: object, errors: ValidationError[], input: InputKind): object {
  if (errors.length > 0) throw invalid(errors, input);
  refuseForbiddenText(entity);
  return entity;
}

function refuseForbiddenText(value: unknown): void {
  const detail = clientTextProblem(value);
  if (detail) throw ApiError.invalid([detail]);
}

/** Parameter types that are no DTO: passed on as they are (as Nest's ValidationPipe does). */
const SCALAR_TYPES = new Set<unknown>([String, Boolean, Number, Array, Object, Buffer, Date]);

/**
 * Whether a property name is one no DTO declares and class-transformer skips: the members of
 * Object.prototype (`__proto__`, `constructor`, `toString`, `valueOf`, ...) and `prototype`.
 * Whitelisting never sees them, so they would be dropped silently instead of refused.
 */
const isPrototypeName = (key: string) => key in Object.prototype || key === 'prototype';

/** The path of the first prototype-named property in a parsed body or query, or null. */
function forbiddenKeyPath(value: unknown): string[] | null {
  if (typeof value !== 'object' || value === null) return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const path = forbiddenKeyPath(value[i]);
      if (path) return [String(i), ...path];
    }
    return null;
  }
  for (const key of Object.keys(value)) {
    if (isPrototypeName(key)) return [key];
    const path = forbiddenKeyPath((value as Record<string, unknown>)[key]);
    if (path) return [key, ...path];
  }
  return null;
}

/**
 * Refuses prototype-named properties anywhere in a parsed body or query (bounded depth), naming
 * the first one by its path (built only then: every request's input passes here).
 */
function refuseForbiddenKeys(value: unknown): void {
  const path = forbiddenKeyPath(value);
  if (path === null) return;
  const field = path.join('.');
  throw ApiError.invalid([
    {
      field,
      issue: 'unknown_field',
      message: `${field} is not a field: no input may name a member of Object.prototype (__proto__, constructor, toString, ...) or prototype.`,
    },
  ]);
}

/** A query the router could not decode (strict-query.ts): refused as a whole, naming the parameter. */
function refuseBadlyEncodedQuery(value: unknown): void {
  const refusal = (value as ParsedQuery | undefined)?.[QUERY_REFUSAL];
  if (refusal !== undefined) {
    throw ApiError.invalid([{ field: 'query', issue: 'format', message: refusal }]);
  }
}

/** The body a handler takes: the deferred parse failure raised, anything but a JSON object refused. */
function jsonObjectBody(value: unknown): object {
  if (value instanceof RejectedBody) throw value.error;
  if (value === undefined) {
    throw ApiError.invalid([
      {
        field: 'body',
        issue: 'required',
        message: 'A JSON object body is required: send one with Content-Type: application/json.',
      },
    ]);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw ApiError.invalid([
      { field: 'body', issue: 'type', message: 'The request body must be a JSON object.' },
    ]);
  }
  refuseForbiddenKeys(value);
  return value;
}

/** A named scalar path or query parameter (`@Param('id') id: number`), converted as Nest does. */
function scalarParameter(value: unknown, { type, metatype, data }: ArgumentMetadata): unknown {
  if (!data || (type !== 'param' && type !== 'query') || value === undefined) return value;
  const detail = clientTextProblem(value, data);
  if (detail) throw ApiError.invalid([detail]);
  if (metatype === Boolean) return value === true || value === 'true';
  if (metatype === Number) return +(value as string);
  if (metatype === String) return String(value);
  return value;
}

/**
 * The one validation of every input: bodies, queries, path parameters and the headers an operation
 * takes (IdempotencyKey), each a DTO class with class-validator rules. No coercion, unknown
 * properties refused, every failure a 400 `validation_failed` whose details name each offending
 * input, what is wrong with it and how to put it right (validation-details.ts).
 * A body must be a JSON object (its deferred parse failure is raised here, after the guards), and
 * a body or query may not name a prototype property anywhere. Every string of every input then
 * obeys the one character rule (no NUL, lone surrogate or control character: client-text.ts).
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
    else if (metadata.type === 'query') {
      refuseBadlyEncodedQuery(value);
      refuseForbiddenKeys(value);
    }
    const metatype = metadata.metatype as ClassConstructor<object> | undefined;
    if (!metatype || SCALAR_TYPES.has(metatype)) {
      if (!metadata.data && (metadata.type === 'body' || metadata.type === 'query')) {
        refuseForbiddenText(value);
      }
      return scalarParameter(value, metadata);
    }
    const input = metadata.type as InputKind;
    if (typeof (value ?? {}) !== 'object') {
      throw ApiError.invalid([
        { field: input, issue: 'type', message: `The ${input} must be an object.` },
      ]);
    }
    if (this.hasAsynchronousRules(metatype)) {
      const entity = plainToInstance(metatype, value ?? {}, TRANSFORM_OPTIONS);
      return validate(entity, VALIDATOR_OPTIONS).then((errors) => valid(entity, errors, input));
    }
    const key =
      this.cache && (metadata.type === 'query' || metadata.type === 'param')
        ? this.cache.keyOf(value)
        : undefined;
    if (key !== undefined) return this.validRemembered(metatype, key, value, input);
    const entity = plainToInstance(metatype, value ?? {}, TRANSFORM_OPTIONS);
    return valid(entity, validateSync(entity, VALIDATOR_OPTIONS), input);
  }

  /** The answer for an input the cache may know; validated, and remembered, if it does not. */
  private validRemembered(
    metatype: ClassConstructor<object>,
    key: string,
    value: unknown,
    input: InputKind,
  ): object {
    const cache = this.cache!;
    const recalled = cache.recall(metatype, key);
    if (recalled?.valid) return recalled.dto;
    if (recalled) throw ApiError.invalid(recalled.details);
    const entity = plainToInstance(metatype, value, TRANSFORM_OPTIONS);
    const errors = validateSync(entity, VALIDATOR_OPTIONS);
    const detail = errors.length > 0 ? null : clientTextProblem(entity);
    if (errors.length > 0 || detail) {
      const refusal = detail ? ApiError.invalid([detail]) : invalid(errors, input);
      cache.rememberInvalid(metatype, key, refusal.details!);
      throw refusal;
    }
    cache.rememberValid(metatype, key, entity);
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
