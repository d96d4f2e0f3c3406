import {
  canMove,
  isVisibleTo,
  managedOrganization,
  move,
  ORDER_STATUSES,
  OrderStatus,
  petStatusFor,
  scopesToMoveTo,
  TARGET_STATUSES,
} from './order';
import { InvalidTransitionError } from './order.errors';

describe('the order lifecycle', () => {
  const allowed: [OrderStatus, OrderStatus][] = [
    ['placed', 'approved'],
    ['placed', 'cancelled'],
    ['approved', 'delivered'],
    ['approved', 'cancelled'],
  ];
  const everyPair = ORDER_STATUSES.flatMap((from) =>
    ORDER_STATUSES.map((to) => [from, to] as [OrderStatus, OrderStatus]),
  );
  const refused = everyPair.filter(
    ([from, to]) => !allowed.some(([f, t]) => f === from && t === to),
  );

  it.each(allowed)('moves %s → %s', (from, to) => {
    expect(canMove(from, to)).toBe(true);
    expect(move({ id: 7, status: from }, to)).toBe(to);
  });

  it.each(refused)('refuses %s → %s, naming both', (from, to) => {
    expect(canMove(from, to)).toBe(false);
    expect(() => move({ id: 7, status: from }, to)).toThrow(
      new InvalidTransitionError(7, from, to),
    );
    expect(() => move({ id: 7, status: from }, to)).toThrow(
      `Order 7 is ${from}: it cannot become ${to}.`,
    );
  });

  it('has two final statuses, from which nothing moves', () => {
    const final = ORDER_STATUSES.filter((from) => ORDER_STATUSES.every((to) => !canMove(from, to)));
    expect(final).toEqual(['delivered', 'cancelled']);
  });

  it('never moves an order back to placed', () => {
    expect(TARGET_STATUSES).not.toContain('placed');
    expect(ORDER_STATUSES.some((from) => canMove(from, 'placed'))).toBe(false);
  });

  it('takes the pet along: pending while open, sold once delivered, available once cancelled', () => {
    expect(ORDER_STATUSES.map(petStatusFor)).toEqual(['pending', 'pending', 'sold', 'available']);
  });

  it('lets a client cancel its own order, and only a manager approve or deliver', () => {
    expect(scopesToMoveTo('cancelled')).toEqual(['orders:write', 'orders:manage']);
    expect(scopesToMoveTo('approved')).toEqual(['orders:manage']);
    expect(scopesToMoveTo('delivered')).toEqual(['orders:manage']);
  });

  it("shows an order to its own key, and to the staff managing its pet's organisation's orders, to no one else", () => {
    const order = { owner: '1', organizationId: 7 };
    const seen = (keyId: string, scopes: string[], organizationId: number | null) =>
      isVisibleTo(order, { keyId, scopes, organizationId });
    expect(seen('1', ['orders:read'], null)).toBe(true);
    expect(seen('1', ['orders:write'], 8)).toBe(true);
    expect(seen('2', ['orders:read', 'orders:write'], null)).toBe(false);
    expect(seen('2', ['orders:manage'], 7)).toBe(true);
    expect(seen('2', ['orders:read', 'orders:write'], 7)).toBe(false);
    expect(seen('2', ['orders:manage'], 8)).toBe(false);
    expect(seen('2', ['orders:manage'], null)).toBe(false);
  });

  it('gives a key the orders of its own organisation to manage, and none without one', () => {
    expect(managedOrganization({ keyId: '1', scopes: ['orders:manage'], organizationId: 7 })).toBe(
      7,
    );
    expect(
      managedOrganization({ keyId: '1', scopes: ['orders:manage'], organizationId: null }),
    ).toBeNull();
    expect(
      managedOrganization({ keyId: '1', scopes: ['orders:read'], organizationId: 7 }),
    ).toBeNull();
  });
});
