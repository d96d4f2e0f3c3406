import { HostResolver } from '../../src/webhooks/application/webhook-delivery';

/**
 * Names resolved from a table, for tests: a name that resolves to loopback without touching
 * /etc/hosts or DNS. A name not in the table does not resolve.
 */
export class FixedHostResolver extends HostResolver {
  constructor(private readonly table: Record<string, string[]>) {
    super();
  }

  async resolve(hostname: string) {
    const addresses = this.table[hostname];
    if (!addresses)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map(
      (address) => ({ address, family: address.includes(':') ? 6 : 4 }) as const,
    );
  }
}
