import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { idList, IsIdList } from './id-list.validator';

class Query {
  @IsIdList(1000n, 3)
  id!: string;
}

const problems = (id: unknown) =>
  validateSync(plainToInstance(Query, { id })).flatMap((error) =>
    Object.values(error.constraints ?? {}),
  );

describe('IsIdList and idList', () => {
  it('takes one to `most` ids within bounds, written plainly, and folds them ascending', () => {
    expect(problems('7')).toEqual([]);
    expect(problems('3,1,3')).toEqual([]);
    expect(idList('3,1,3')).toEqual([1, 3]);
  });

  it.each([
    ['1,2,3,4', 'id names at most 3 ids (4 given)'],
    ['0', 'id must be one or more ids from 1 to 1000, comma-separated'],
    ['1001', 'id must be one or more ids from 1 to 1000, comma-separated'],
    ['1,,2', 'id must be one or more ids from 1 to 1000, comma-separated'],
    ['01', 'id must be one or more ids from 1 to 1000, comma-separated'],
    ['a', 'id must be one or more ids from 1 to 1000, comma-separated'],
    ['', 'id must be one or more ids from 1 to 1000, comma-separated'],
  ])('refuses %j: %s', (id, message) => {
    expect(problems(id)).toEqual([message]);
  });
});
