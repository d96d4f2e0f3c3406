import { Injectable } from '@nestjs/common';
import { lookup } from 'node:dns/promises';
import { HostResolver } from '../application/webhook-delivery';

/** Names resolved as the operating system resolves them (every address, IPv4 and IPv6). */
@Injectable()
export class DnsHostResolver extends HostResolver {
  async resolve(hostname: string) {
    const addresses = await lookup(hostname, { all: true, verbatim: true });
    return addresses.map(
      ({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }) as const,
    );
  }
}
