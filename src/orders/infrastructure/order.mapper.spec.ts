import { OrderMapper } from './order.mapper';

describe('OrderMapper', () => {
  const row = {
    id: '7',
    petId: '3',
    ownerKeyId: '12',
    organizationId: '3',
    status: 'placed',
    placedAt: '2026-11-23T13:10:50.583Z',
    updatedAt: '2026-11-23T13:11:00.100Z',
    expiresAt: '2026-11-26T13:10:50.583Z',
    cancelReason: null,
  };

  it('maps a row as the statements select it: ids as numbers, the owner as the key id', () => {
    expect(OrderMapper.toDomain(row)).toEqual({
      id: 7,
      petId: 3,
      owner: '12',
      organizationId: 3,
      status: 'placed',
      placedAt: '2026-11-23T13:10:50.583Z',
      updatedAt: '2026-11-23T13:11:00.100Z',
      expiresAt: '2026-11-26T13:10:50.583Z',
      cancelReason: null,
    });
  });

  it('refuses a status no order can have, rather than answer it', () => {
    expect(() => OrderMapper.toDomain({ ...row, status: 'lost' })).toThrow(
      'Stored order 7 has an unknown status.',
    );
    expect(() =>
      OrderMapper.toDomain({ ...row, status: 'cancelled', cancelReason: 'bored' }),
    ).toThrow('Stored order 7 has an unknown cancel reason.');
  });
});
