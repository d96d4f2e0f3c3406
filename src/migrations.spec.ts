import { migrations } from './migrations';

describe('the migrations, found by convention', () => {
  const names = migrations.map((migration) => migration.name);

  it('are in timestamp order, each once', () => {
    const timestamps = names.map((name) => Number(name.slice(-13)));
    expect(timestamps).toEqual([...timestamps].sort((a, b) => a - b));
    expect(new Set(timestamps).size).toBe(timestamps.length);
  });

  it("include each feature's, the platform's and the API-key library's", () => {
    expect(names).toEqual(
      expect.arrayContaining([
        'CreatePets1795219200000',
        'CreateApiKeys1795219300000',
        'CreateIdempotencyKeys1795219400000',
        'AddApiKeyScopes1795219800000',
        'CreateOrders1795219900000',
        'CountPetsByStatus1795220000000',
      ]),
    );
    expect(names.indexOf('CreatePets1795219200000')).toBeLessThan(
      names.indexOf('CreateOrders1795219900000'),
    );
  });
});
