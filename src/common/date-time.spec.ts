import { dateTimeProblem, instantOf } from './date-time';

describe('dateTimeProblem', () => {
  it.each([
    '2027-06-30T12:00:00Z',
    '2028-02-29T00:00:00Z',
    '2027-12-31T23:59:59.999999999+14:00',
    '2027-01-01t00:00:00z',
    '2027-06-30T12:00:00-23:59',
  ])('accepts %s', (text) => {
    expect(dateTimeProblem(text)).toBeNull();
  });

  it.each([
    ['2026-13-01T00:00:00Z', /no month 13/],
    ['2027-02-29T00:00:00Z', /no day 29 in month 02/],
    ['2026-02-30T00:00:00Z', /no day 30 in month 02/],
    ['2026-04-31T00:00:00Z', /no day 31/],
    ['2026-01-01T24:00:00Z', /no time 24:00:00/],
    ['2026-01-01T00:60:00Z', /no time/],
    ['2026-01-01T00:00:60Z', /no time/],
    ['2026-01-01T00:00:00+99:99', /no time offset \+99:99/],
    ['2026-01-01T00:00:00+24:00', /no time offset/],
    ['2026-01-01', /RFC 3339/],
    ['2026-01-01T00:00:00', /RFC 3339/],
    ['2026-1-01T00:00:00Z', /RFC 3339/],
    [' 2026-01-01T00:00:00Z', /RFC 3339/],
    ['tomorrow', /RFC 3339/],
  ])('refuses %s', (text, why) => {
    expect(dateTimeProblem(text)).toMatch(why);
  });

  it('never moves an instant: what it accepts is the instant written', () => {
    expect(instantOf('2028-02-29T23:30:00-01:00').toISOString()).toBe('2028-03-01T00:30:00.000Z');
  });
});
