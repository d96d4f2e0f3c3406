import { parse } from 'node:querystring';
import { parseQueryStrictly, QUERY_REFUSAL, queryProblemOf } from './strict-query';

describe('parseQueryStrictly', () => {
  it.each([
    '',
    'name=Rex',
    'name=R%C3%A9x&limit=20',
    'status=available&status=pending&status=sold',
    'a+b=c+d%2B',
    'flag&empty=&=value',
    '__proto__=1&constructor=2',
    'near=51.45%2C-2.58&radiusKm=10',
    'name=%F0%9F%90%95',
    'a=1&&b=2',
  ])('reads %j as node:querystring does', (query) => {
    const parsed = parseQueryStrictly(query);
    expect(parsed[QUERY_REFUSAL]).toBeUndefined();
    expect({ ...parsed }).toEqual({ ...parse(query) });
    expect(Object.getPrototypeOf(parsed)).toBeNull();
  });

  it.each([
    'name=%E0%A4%A',
    'name=%',
    'name=%G1',
    'name=%FF',
    'name=%C3',
    'name=%ED%A0%80',
    'name=Rex&limit=%2',
    '%E0=1',
    'name=%C0%AF',
  ])('refuses %j, naming the parameter', (query) => {
    expect(parseQueryStrictly(query)[QUERY_REFUSAL]).toMatch(/is not validly percent-encoded/);
  });

  it('finds the problem of a whole URL, or none', () => {
    expect(queryProblemOf('/v1/pets/1?name=%E0%A4%A')).toMatch(/"name"/);
    expect(queryProblemOf('/v1/pets/1?name=Rex')).toBeNull();
    expect(queryProblemOf('/v1/pets/1')).toBeNull();
  });
});
