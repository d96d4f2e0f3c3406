import { scopesBeyond } from './key';

describe('scopesBeyond', () => {
  it('names the scopes the issuer does not hold, and none when it holds them all', () => {
    const held = ['pets:read', 'pets:manage', 'organization:manage'];
    expect(scopesBeyond(['pets:read'], held)).toEqual([]);
    expect(scopesBeyond(held, held)).toEqual([]);
    expect(scopesBeyond(['pets:read', 'orders:manage', 'webhooks:manage'], held)).toEqual([
      'orders:manage',
      'webhooks:manage',
    ]);
  });
});
