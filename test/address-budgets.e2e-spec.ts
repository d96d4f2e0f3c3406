import { apiClient, expectError } from './support/http';
import { startTestApp, TestApp } from './support/test-app';
import { awayFromMinuteEnd } from './support/windows';

/**
 * docs/adr/0023: requests without a valid key are budgeted per IPv4 address or IPv6 /64, however
 * the address is written. Behind one trusted proxy, so that the test can be many clients.
 */
describe('anonymous budgets per address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ ANONYMOUS_PER_MINUTE: '3', TRUST_PROXY: '1' });
  });
  afterAll(() => t.close());

  const from = (address: string) =>
    apiClient(t.url, { 'x-forwarded-for': address }).get('/v1/pets');

  it('gives one budget to every address of an IPv6 /64, in any spelling', async () => {
    await awayFromMinuteEnd();
    const spellings = ['2001:db8:7:1::1', '2001:0DB8:0007:0001::2', '2001:db8:7:1:ffff:0:0:3'];
    for (const address of spellings) expect((await from(address)).status).toBe(401);
    expectError(await from('2001:db8:7:1:abcd::4'), 429, 'rate_limited');
    // The next /64 is another subscriber.
    expect((await from('2001:db8:7:2::1')).status).toBe(401);
  });

  it('counts IPv4-mapped IPv6 as the IPv4 address', async () => {
    await awayFromMinuteEnd();
    for (const address of ['198.51.100.9', '::ffff:198.51.100.9', '::ffff:c633:6409']) {
      expect((await from(address)).status).toBe(401);
    }
    expectError(await from('198.51.100.9'), 429, 'rate_limited');
  });
});
