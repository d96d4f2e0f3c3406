import { clientAddress } from './client-address';

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
