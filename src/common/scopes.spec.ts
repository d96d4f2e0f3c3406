import { checkScope, DEFAULT_SCOPES, InsufficientScopeError, isScope, SCOPES } from './scopes';

describe('scopes', () => {
  it('lets a key through with any one of the scopes that allow the operation', () => {
    expect(() => checkScope(['orders:read', 'orders:manage'], ['orders:read'])).not.toThrow();
    expect(() => checkScope(['orders:read', 'orders:manage'], ['orders:manage'])).not.toThrow();
  });

  it('refuses a key with none of them, naming the first as the scope to ask for', () => {
    const refusal = () => checkScope(['orders:read', 'orders:manage'], ['pets:read', 'pets:write']);
    expect(refusal).toThrow(InsufficientScopeError);
    expect(refusal).toThrow(
      'This API key lacks the scope orders:read, which this operation needs.',
    );
    try {
      refusal();
    } catch (error) {
      expect(error).toMatchObject({ code: 'forbidden', scope: 'orders:read' });
    }
  });

  it('refuses a key without scopes at all', () => {
    expect(() => checkScope(['pets:read'], [])).toThrow(InsufficientScopeError);
  });

  it('gives default keys all of v1, their own orders and (from v1.4) their own applications, but not everyone else’s', () => {
    expect(DEFAULT_SCOPES).toEqual([
      'pets:read',
      'pets:write',
      'orders:read',
      'orders:write',
      'applications:write',
    ]);
    expect(DEFAULT_SCOPES).not.toContain('orders:manage');
    expect(SCOPES.filter(isScope)).toEqual(SCOPES);
    expect(isScope('pets:delete')).toBe(false);
  });
});
