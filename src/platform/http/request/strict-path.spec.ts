import { pathProblemOf } from './strict-path';

describe('pathProblemOf', () => {
  it.each([
    '/v1/pets/%E0',
    '/v1/pets/%ZZ',
    '/v1/pets/%',
    '/v1/pets/%ED%A0%80',
    '/admin/%C0%AF?x=1',
  ])('refuses %s', (url) => expect(pathProblemOf(url)).toMatch(/not validly percent-encoded/));

  it.each(['/v1/pets/1', '/v1/pets/R%C3%A9n%C3%A9e', '/v1/a%2Fb', '/v1/pets?name=%E0'])(
    'accepts %s (the query is judged apart)',
    (url) => expect(pathProblemOf(url)).toBeNull(),
  );
});
