import { isDatabaseUnavailable, isTransactionConflict } from './database-errors';

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

describe('isTransactionConflict', () => {
  it.each([
    [{ code: '40P01', message: 'deadlock detected' }],
    [{ code: '40001', message: 'could not serialize access due to concurrent update' }],
    [{ message: 'query failed', driverError: { code: '40P01' } }],
    [new Error('wrapped', { cause: { code: '40001' } })],
  ])('recognises %p as a conflict to run again', (error) => {
    expect(isTransactionConflict(error)).toBe(true);
  });

  it.each([[{ code: '23505' }], [{ code: '57014' }], [new Error('40P01')], [undefined]])(
    'does not take %p for one',
    (error) => {
      expect(isTransactionConflict(error)).toBe(false);
    },
  );
});
