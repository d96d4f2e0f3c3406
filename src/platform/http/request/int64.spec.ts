import { INT64_MAX, parseInt64 } from './int64';

describe('parseInt64', () => {
  it.each([
    ['0', 0n, 0n],
    ['1', 1n, 1n],
    ['9007199254740993', 1n, 9007199254740993n],
    ['9223372036854775807', 1n, INT64_MAX],
  ])('parses %s exactly', (text, min, value) => {
    expect(parseInt64(text, min)).toBe(value);
  });

  it.each([
    '0',
    '-1',
    '01',
    '1.5',
    '1e3',
    ' 1',
    '',
    'abc',
    '9223372036854775808',
    '99999999999999999999',
  ])('refuses %j as an id from 1', (text) => {
    expect(parseInt64(text, 1n)).toBeNull();
  });

  it('refuses what is not text', () => {
    expect(parseInt64(['1'], 1n)).toBeNull();
  });
});
