import { isDatabaseUnavailable } from './database-errors';

describe('isDatabaseUnavailable', () => {
  it.each([
    [{ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:5432' }],
    [new Error('timeout exceeded when trying to connect')],
    [new Error('Connection terminated unexpectedly')],
    [{ code: '57P01', message: 'terminating connection due to administrator command' }],
    [{ code: '08006', message: 'connection failure' }],
    [{ message: 'query failed', driverError: { code: 'ECONNRESET', message: 'read ECONNRESET' } }],
  ])('recognises %p as an outage', (error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    [new Error('column "nope" does not exist')],
    [{ code: '23505', message: 'duplicate key value violates unique constraint' }],
    [undefined],
  ])('does not take %p for an outage', (error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
