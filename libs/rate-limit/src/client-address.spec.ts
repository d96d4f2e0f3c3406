import { clientAddress, clientBudget } from './client-address';

describe('clientAddress', () => {
  it.each(['203.0.113.7', '2001:db8::1', '::ffff:192.0.2.1'])(
    'takes the derived address %s',
    (ip) => {
      expect(clientAddress({ ip, socket: { remoteAddress: '10.0.0.1' } })).toBe(ip);
    },
  );

  it.each(['not-an-address', '', '203.0.113.7, 10.0.0.1', '999.1.1.1', 'unknown'])(
    'falls back to the socket for a forwarded %j',
    (ip) => {
      expect(clientAddress({ ip, socket: { remoteAddress: '10.0.0.1' } })).toBe('10.0.0.1');
    },
  );
});

describe('clientBudget', () => {
  const budget = (ip: string) => clientBudget({ ip, socket: { remoteAddress: '10.0.0.1' } });

  it('is the IPv4 address, also when written as IPv4-mapped IPv6', () => {
    expect(budget('203.0.113.7')).toBe('203.0.113.7');
    expect(budget('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(budget('::FFFF:cb00:7107')).toBe('203.0.113.7');
  });

  it('is the /64 of an IPv6 address, whatever the spelling', () => {
    const one = [
      '2001:db8:1:2::1',
      '2001:0db8:0001:0002:0000:0000:0000:0002',
      '2001:DB8:1:2:ffff:ffff:ffff:ffff',
      '2001:db8:1:2:abcd::',
    ].map(budget);
    expect(new Set(one)).toEqual(new Set(['2001:db8:1:2::/64']));
    expect(budget('2001:db8:1:3::1')).not.toBe(one[0]);
    expect(budget('::1')).toBe('::/64');
  });

  it('keeps the socket address when the derived one is not an address', () => {
    expect(budget('not-an-address')).toBe('10.0.0.1');
  });
});
