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
