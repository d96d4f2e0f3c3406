import ipaddr from 'ipaddr.js';
import { isIP } from 'node:net';

/** What a request tells of its client: the address its framework derived, and the socket's. */
export interface RequestWithAddress {
  ip?: string;
  socket?: { remoteAddress?: string };
}

/**
 * The address a request is counted as when it has no known client. A forwarded value that is not
 * an IP address (`X-Forwarded-For: anything`) is ignored in favour of the socket's, so that a
 * client cannot make itself a new subject, and a new counter, with every request.
 */
export function clientAddress(request: RequestWithAddress): string {
  if (request.ip !== undefined && isIP(request.ip) !== 0) return request.ip;
  return request.socket?.remoteAddress ?? 'unknown';
}

/** How many leading bits of an IPv6 address name one client: the /64 one subscriber gets. */
const IPV6_CLIENT_BITS = 64;

/**
 * The unit a request without a known client is budgeted as (docs/adr/0023): an IPv4 address, or
 * the /64 network of an IPv6 address, since one subscriber commonly holds a whole /64 and could
 * otherwise take a new budget for every address in it. IPv4-mapped IPv6 (`::ffff:192.0.2.1`) is
 * the IPv4 address, and every spelling of one network gives the same text.
 */
export function clientBudget(request: RequestWithAddress): string {
  const address = clientAddress(request);
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const bytes = parsed.toByteArray().fill(0, IPV6_CLIENT_BITS / 8);
  return `${ipaddr.fromByteArray(bytes).toString()}/${IPV6_CLIENT_BITS}`;
}
