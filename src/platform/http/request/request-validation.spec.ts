import { ArgumentMetadata } from '@nestjs/common';
import { IsIn, IsOptional, IsString, Matches, ValidateIf } from 'class-validator';
import fc from 'fast-check';
import { ApiError } from '../errors/api-error';
import { IsInt64Text } from './int64';
import { PageQueryDto } from './page-query.dto';
import { RequestValidationPipe } from './request-validation';
import { ENTRIES_PER_CLASS, ValidationCache } from './validation-cache';

/** A query DTO with the rules the API's queries use, and a constructor that sets a default. */
class FilterQueryDto extends PageQueryDto {
  @IsOptional()
  @IsString({ message: 'status must be given once' })
  @IsIn(['available', 'pending', 'sold'])
  status?: string;

  @ValidateIf((_, value) => value !== undefined)
  @Matches(/^[a-z]{1,5}$/)
  tag?: string;

  readonly origin = 'query';
}

class IdParamsDto {
  @IsInt64Text(1n)
  id!: string;
}

const cases: [new () => object, ArgumentMetadata['type'], string[]][] = [
  [FilterQueryDto, 'query', ['limit', 'after', 'status', 'tag', 'origin']],
  [PageQueryDto, 'query', ['limit', 'after']],
  [IdParamsDto, 'param', ['id']],
];

/** Strings a client may send: plain, numeric at and beyond every bound, and hostile ones. */
const text = fc.oneof(
  fc.constantFrom('', ' ', '0', '1', '20', '100', '101', '-1', '1.5', '1e3', '9223372036854775807'),
  fc.constantFrom('9223372036854775808', '00', 'available', 'sold ', 'SOLD', 'abc', '__proto__'),
  fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }).map(String),
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 8 }),
);

/** Inputs as Fastify hands them over: null-prototype queries, plain params; repeats, arrays too. */
function inputs(names: string[]) {
  const name = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...names) },
    fc.constantFrom('constructor', 'prototype', 'toString', 'sort', 'LIMIT', ''),
    fc.string({ maxLength: 6 }),
  );
  const value = fc.oneof({ weight: 6, arbitrary: text }, fc.array(text, { maxLength: 3 }));
  return fc
    .tuple(fc.array(fc.tuple(name, value), { maxLength: 5 }), fc.boolean())
    .map(([entries, nullPrototype]) => {
      const input: Record<string, unknown> = nullPrototype ? Object.create(null) : {};
      for (const [key, v] of entries) {
        Object.defineProperty(input, key, {
          value: v,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return input;
    });
}

type Outcome =
  { error: string; details: unknown } | { prototype: object | null; entries: [string, unknown][] };

function outcome(pipe: RequestValidationPipe, input: object, metadata: ArgumentMetadata) {
  try {
    const dto = pipe.transform(input, metadata) as object;
    return {
      dto,
      answer: { prototype: Object.getPrototypeOf(dto), entries: Object.entries(dto) } as Outcome,
    };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return {
      dto: undefined,
      answer: { error: `${error.code}: ${error.message}`, details: error.details } as Outcome,
    };
  }
}

const copy = (input: object) =>
  Object.defineProperties(
    Object.create(Object.getPrototypeOf(input) as object | null) as object,
    Object.getOwnPropertyDescriptors(input),
  );

describe('RequestValidationPipe with its cache of validation results', () => {
  it.each(cases)(
    'answers %p as validating again does, hit or miss, hostile inputs included, with fresh objects',
    (metatype, type, names) => {
      const cached = new RequestValidationPipe();
      const uncached = RequestValidationPipe.uncached();
      const metadata: ArgumentMetadata = { type, metatype };
      fc.assert(
        fc.property(inputs(names), (input) => {
          const expected = outcome(uncached, copy(input), metadata);
          const first = outcome(cached, copy(input), metadata);
          const second = outcome(cached, copy(input), metadata);
          expect(first.answer).toEqual(expected.answer);
          expect(second.answer).toEqual(expected.answer);
          if (first.dto) {
            // Never the same object twice, and what one caller changes the next never sees.
            expect(second.dto).not.toBe(first.dto);
            (first.dto as Record<string, unknown>).limit = 'changed';
            expect(outcome(cached, copy(input), metadata).answer).toEqual(expected.answer);
          }
        }),
        { numRuns: 2_000 },
      );
    },
  );

  it('keys on the exact input: the same values under other names, or in another order, are other inputs', () => {
    const cache = new ValidationCache();
    expect(cache.keyOf({ limit: '1', after: '2' })).not.toBe(
      cache.keyOf({ after: '2', limit: '1' }),
    );
    expect(cache.keyOf({ limit: '1' })).not.toBe(cache.keyOf({ limit: '1 ' }));
    expect(cache.keyOf({ limit: ['1'] })).toBeUndefined();
    expect(cache.keyOf({ limit: 'x'.repeat(600) })).toBeUndefined();
  });

  it(`remembers at most ${ENTRIES_PER_CLASS} inputs of a class`, () => {
    const cache = new ValidationCache();
    for (let i = 0; i < 3 * ENTRIES_PER_CLASS; i++) {
      cache.rememberInvalid(IdParamsDto, cache.keyOf({ id: String(i) })!, [
        { field: 'id', issue: 'range', message: 'no' },
      ]);
    }
    expect(cache.size(IdParamsDto)).toBe(ENTRIES_PER_CLASS);
    expect(cache.recall(IdParamsDto, cache.keyOf({ id: '0' })!)).toBeUndefined();
  });

  it('validates a body every time: bodies are not remembered', () => {
    const pipe = new RequestValidationPipe();
    const metadata: ArgumentMetadata = { type: 'body', metatype: PageQueryDto };
    const first = pipe.transform({ limit: '5' }, metadata);
    expect(first).toBeInstanceOf(PageQueryDto);
    expect(() => pipe.transform({ limit: '0' }, metadata)).toThrow(/limit must be an integer/);
  });
});
