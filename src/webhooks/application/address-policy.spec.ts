import { AddressPolicy } from './address-policy';

const policy = new AddressPolicy([]);
const refusal = (url: string) => policy.urlProblem(url);

describe('where webhooks may be sent', () => {
  it.each([
    // loopback, in every IPv4 spelling WHATWG URL parsing knows
    'https://127.0.0.1/',
    'https://127.1/',
    'https://2130706433/',
    'https://0x7f000001/',
    'https://0x7f.0.0.1/',
    'https://0177.0.0.1/',
    'https://017700000001/',
    'https://127.255.255.254/',
    // private, link-local (the metadata address), CGNAT, unspecified, multicast, broadcast, reserved
    'https://10.1.2.3/',
    'https://172.16.0.1/',
    'https://192.168.1.1/',
    'https://169.254.169.254/',
    'https://0xa9fea9fe/',
    'https://100.64.0.1/',
    'https://0.0.0.0/',
    'https://224.0.0.1/',
    'https://255.255.255.255/',
    'https://240.0.0.1/',
    'https://192.0.2.1/',
    'https://198.18.0.1/',
    // IPv6: loopback, unspecified, unique-local, link-local, multicast, documentation
    'https://[::1]/',
    'https://[0:0:0:0:0:0:0:1]/',
    'https://[::]/',
    'https://[fc00::1]/',
    'https://[fd12:3456::1]/',
    'https://[fe80::1]/',
    'https://[ff02::1]/',
    'https://[2001:db8::1]/',
    // IPv4 inside IPv6: mapped, translated, NAT64 (well-known and local-use), 6to4, Teredo
    'https://[::ffff:127.0.0.1]/',
    'https://[::ffff:7f00:1]/',
    'https://[::ffff:169.254.169.254]/',
    'https://[::ffff:10.0.0.1]/',
    'https://[::ffff:0:127.0.0.1]/',
    'https://[64:ff9b::127.0.0.1]/',
    'https://[64:ff9b::a9fe:a9fe]/',
    'https://[64:ff9b:1::7f00:1]/',
    'https://[2002:7f00:1::]/',
    'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/',
    // IPv4-compatible (::a.b.c.d): what ipaddr.js calls unicast, judged by the IPv4 it carries
    'https://[::127.0.0.1]/',
    'https://[::7f00:1]/',
    'https://[::169.254.169.254]/',
    'https://[::10.0.0.1]/',
    'https://[::0.0.0.2]/',
    // NAT64 local-use: refused when any reading of where the IPv4 sits is not public
    'https://[64:ff9b:1:7f00:1::]/',
    'https://[64:ff9b:1:a:7f:0:100::]/',
    'https://[64:ff9b:1:0:0:0a00:1::]/',
    // 6to4 carrying private and link-local addresses
    'https://[2002:a00:1::1]/',
    'https://[2002:a9fe:a9fe::]/',
    // Teredo whose client (stored inverted) is loopback, or whose server is private
    'https://[2001:0:808:808::80ff:fffe]/',
    'https://[2001:0:a00:1::f7f7:f7f7]/',
    // IPv6 outside 2000::/3, or a special range inside it: the allow-list refuses it
    'https://[100::1]/',
    'https://[4000::1]/',
    'https://[fec0::1]/',
    'https://[5f00::1]/',
    'https://[2001:2::1]/',
    'https://[2001:10::1]/',
    'https://[2001:20::1]/',
    'https://[2001:100::1]/',
    'https://[3fff::1]/',
    'https://[2620:4f:8000::1]/',
    // names
    'https://localhost/',
    'https://LOCALHOST./',
    'https://shop.localhost/',
    'https://a.b.localhost./',
  ])('refuses %s', (url) => {
    expect(refusal(url)).toBeDefined();
  });

  it.each([
    'https://example.com/hooks',
    'https://93.184.215.14/',
    'https://8.8.8.8:8443/x',
    'https://[2606:4700::1111]/',
    'https://[::ffff:8.8.8.8]/',
    'https://[64:ff9b::808:808]/',
    'https://[::8.8.8.8]/',
    'https://[2002:808:808::1]/',
    'https://[2001:0:808:808::f7f7:f7f7]/',
    'https://[2a00:1450:4001::200e]/',
    'https://[2001:4860:4860::8888]/',
    'https://[64:ff9b:1:808:8:808:808:808]/',
    'https://localhost.example.com/',
    'https://mylocalhost/',
    'https://example.com:1/',
    'https://example.com:65535/',
  ])('accepts %s', (url) => {
    expect(refusal(url)).toBeUndefined();
  });

  it.each([
    ['http://example.com/', 'https'],
    ['ftp://example.com/', 'https'],
    ['https://user:pw@example.com/', 'credentials'],
    ['https://user@example.com/', 'credentials'],
    ['https://example.com:0/', 'port 0'],
    ['https://example.com:00/hook', 'port 0'],
    ['https://[2606:4700::1111]:0/', 'port 0'],
    ['/relative', 'absolute'],
    [`https://example.com/${'x'.repeat(2048)}`, '2048'],
  ])('refuses %s, saying why (%s)', (url, why) => {
    expect(refusal(url)).toContain(why);
  });

  describe('with allowed networks', () => {
    const allowing = new AddressPolicy(['127.0.0.0/8', '10.20.0.0/16', 'fd00::/8']);

    it('exempts them, and allows plain http in them', () => {
      expect(allowing.urlProblem('http://127.0.0.1:8080/hook')).toBeUndefined();
      expect(allowing.urlProblem('https://10.20.3.4/hook')).toBeUndefined();
      expect(allowing.urlProblem('http://[fd00::5]/hook')).toBeUndefined();
      expect(allowing.urlProblem('http://[::ffff:127.0.0.1]/hook')).toBeUndefined();
      expect(allowing.isRefused('127.0.0.1')).toBe(false);
      expect(allowing.isInAllowedNetwork('::ffff:10.20.0.1')).toBe(true);
      expect(allowing.isInAllowedNetwork('::127.0.0.1')).toBe(true);
      expect(allowing.isInAllowedNetwork('2002:7f00:1::1')).toBe(true);
    });

    it('exempts nothing else: other private ranges, and http outside them, stay refused', () => {
      expect(allowing.urlProblem('https://10.21.0.1/')).toBeDefined();
      expect(allowing.urlProblem('https://169.254.169.254/')).toBeDefined();
      expect(allowing.urlProblem('http://8.8.8.8/')).toBeDefined();
      expect(allowing.urlProblem('https://localhost/')).toBeDefined();
      // A name over http is accepted here; each attempt sends only to allowed addresses.
      expect(allowing.urlProblem('http://receiver.internal/')).toBeUndefined();
      expect(policy.urlProblem('http://receiver.internal/')).toBeDefined();
    });
  });

  it('judges resolved addresses in any spelling', () => {
    for (const address of [
      '127.0.0.1',
      '::1',
      '::ffff:127.0.0.1',
      '169.254.169.254',
      '10.0.0.1',
      'fe80::1%eth0',
      '::127.0.0.1',
      '64:ff9b::10.0.0.1',
      '2002:7f00:1::1',
      'fd00::1',
      '4000::1',
      'nonsense',
    ]) {
      expect(policy.isRefused(address)).toBe(true);
    }
    for (const address of ['93.184.215.14', '2606:4700::1111', '::8.8.8.8', '2002:808:808::1']) {
      expect(policy.isRefused(address)).toBe(false);
    }
  });
});
