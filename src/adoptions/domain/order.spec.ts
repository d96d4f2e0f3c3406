import {
  canMove,
  isVisibleTo,
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

  it('shows an order to its own key, and to a key that manages orders, to no one else', () => {
    const order = { owner: '1' };
    expect(isVisibleTo(order, { keyId: '1', scopes: ['orders:read'] })).toBe(true);
    expect(isVisibleTo(order, { keyId: '2', scopes: ['orders:read', 'orders:write'] })).toBe(false);
    expect(isVisibleTo(order, { keyId: '2', scopes: ['orders:manage'] })).toBe(true);
  });
});
