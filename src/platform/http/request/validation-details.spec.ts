import { plainToInstance } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, Min, validateSync } from 'class-validator';
import { IsInt64Text } from './int64';
import { IsText } from './text.validator';
import { closestName, unknownFieldMessage, validationDetails } from './validation-details';

class BaseQuery {
  @IsOptional()
  @IsInt64Text(1n, 100n)
  limit?: string;
}

class Query extends BaseQuery {
  @IsOptional()
  @IsString({ message: 'status must be given once' })
  @IsIn(['available', 'sold'], { message: 'status must be one of available, sold' })
  status?: string;
}

class Body {
  @IsText({ min: 1, max: 5 })
  name!: string;

  @IsInt()
  @Min(1)
  @Max(9)
  count!: number;
}

const detailsOf = (type: new () => object, input: object, kind: 'body' | 'query' = 'body') =>
  validationDetails(
    validateSync(plainToInstance(type, input), {
      whitelist: true,
      forbidNonWhitelisted: true,
      validationError: { target: true, value: true },
    }),
    kind,
  );

describe('the closest known name', () => {
  it.each([
    ['categoryID', 'categoryId'],
    ['categoryid', 'categoryId'],
    ['limt', 'limit'],
    ['stauts', 'status'],
    ['perDy', 'perDay'],
  ])('of %s is %s', (name, meant) => {
    expect(closestName(name, ['name', 'categoryId', 'status', 'limit', 'after', 'perDay'])).toBe(
      meant,
    );
  });

  it.each(['page', 'sort', 'x', 'description'])('of %s is none: no name is near it', (name) => {
    expect(closestName(name, ['name', 'categoryId', 'status', 'limit', 'after'])).toBeUndefined();
  });

  it('is one beginning with the same letter: a typo keeps its first letter', () => {
    expect(closestName('page', ['age', 'name'])).toBeUndefined();
    expect(closestName('sizes', ['size', 'sex'])).toBe('size');
  });
});

describe('the message of an unknown input', () => {
  it('names the closest known name and lists every one, in a body, a nested object or a query', () => {
    expect(unknownFieldMessage('nmae', ['name', 'count'], 'body')).toBe(
      'nmae is not a field of this body: did you mean name? Its fields are name, count.',
    );
    expect(unknownFieldMessage('limits.perDy', ['perMinute', 'perDay'], 'body', 'limits')).toBe(
      'limits.perDy is not a field of limits: did you mean perDay? Its fields are perMinute, perDay.',
    );
    expect(unknownFieldMessage('page', ['limit', 'after'], 'query')).toBe(
      'page is not a query parameter of this operation. Its query parameters are limit, after.',
    );
    expect(unknownFieldMessage('page', [], 'query')).toBe(
      'page is not a query parameter of this operation. It takes none.',
    );
  });
});

describe('validation details', () => {
  it('tell an absent field once, as required, and nothing else of it', () => {
    expect(detailsOf(Body, {})).toEqual([
      { field: 'name', issue: 'required', message: 'name is required.' },
      { field: 'count', issue: 'required', message: 'count is required.' },
    ]);
  });

  it('tell a value of the wrong type only that, whatever other rules it breaks', () => {
    expect(detailsOf(Body, { name: 'Rex', count: 'many' })).toEqual([
      { field: 'count', issue: 'type', message: 'count must be an integer number' },
    ]);
  });

  it('judge the house rules by the value: a length is a range, a character a format', () => {
    expect(detailsOf(Body, { name: 'Rexxxx', count: 10 })).toEqual([
      { field: 'name', issue: 'range', message: 'name must be 1 to 5 characters long' },
      { field: 'count', issue: 'range', message: 'count must not be greater than 9' },
    ]);
    expect(detailsOf(Body, { name: 'R\u0000x', count: 1 })).toEqual([
      { field: 'name', issue: 'format', message: expect.stringMatching(/^name .*NUL/) },
    ]);
    expect(detailsOf(Query, { limit: '101' }, 'query')[0].issue).toBe('range');
    expect(detailsOf(Query, { limit: '-1' }, 'query')[0].issue).toBe('range');
    expect(detailsOf(Query, { limit: '01' }, 'query')[0].issue).toBe('format');
    expect(detailsOf(Query, { limit: '1.5' }, 'query')[0].issue).toBe('type');
  });

  it('list the query parameters, inherited ones first, when one is unknown', () => {
    expect(detailsOf(Query, { page: '2', status: 'lost' }, 'query')).toEqual([
      {
        field: 'page',
        issue: 'unknown_field',
        message:
          'page is not a query parameter of this operation. Its query parameters are limit, status.',
      },
      { field: 'status', issue: 'enum', message: 'status must be one of available, sold' },
    ]);
  });
});
