import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { IsDateTime, IsFullDate } from './date-time.validator';

class Body {
  @IsDateTime()
  at!: unknown;

  @IsFullDate()
  day!: unknown;
}

const problems = (at: unknown, day: unknown) =>
  validateSync(plainToInstance(Body, { at, day })).flatMap((error) =>
    Object.values(error.constraints ?? {}),
  );

describe('IsDateTime and IsFullDate', () => {
  it('take an instant and a calendar day that exist', () => {
    expect(problems('2027-06-30T12:00:00Z', '2028-02-29')).toEqual([]);
  });

  it.each([
    ['2027-02-29', ['day has no day 29 in month 02']],
    ['2026-13-01', ['day has no day 01 in month 13']],
    ['0000-01-01', ['day has no day 01 in month 01']],
    ['2026-01-01T00:00:00Z', ['day must be a full-date such as 2024-03-01']],
    ['2026-1-1', ['day must be a full-date such as 2024-03-01']],
    [20260101, ['day must be a string']],
  ])('refuse the day %j', (day, expected) => {
    expect(problems('2027-06-30T12:00:00Z', day)).toEqual(expected);
  });

  it('refuses a day where an instant is asked', () => {
    expect(problems('2026-01-01', '2026-01-01')).toEqual([
      'at must be an RFC 3339 date-time such as 2027-06-30T12:00:00Z',
    ]);
  });
});
