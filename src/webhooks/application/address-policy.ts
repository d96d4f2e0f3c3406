import ipaddr from 'ipaddr.js';
import { MAX_URL_LENGTH } from '../domain/webhook-endpoint';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

const ipv4At = (bytes: number[], at: number[]) => new ipaddr.IPv4(at.map((index) => bytes[index]));

/**
 * The IPv4 address(es) an IPv6 address carries, or undefined when it carries none: such an
 * address is judged as what it carries, because that is where a packet to it ends up.
 * - ::a.b.c.d (IPv4-compatible, deprecated but still routed by some stacks to the IPv4 address),
 *   ::ffff:a.b.c.d (mapped), ::ffff:0:a.b.c.d (translated, RFC 6145), 64:ff9b::a.b.c.d
 *   (well-known NAT64, RFC 6052): the last 32 bits.
 * - 64:ff9b:1::/48 (local-use NAT64, RFC 8215): the operator picks where the IPv4 address sits
 *   (/48, /56, /64 or /96, RFC 6052 section 2.2), which cannot be told from outside; every
 *   reading is returned, and the address passes only if every one of them does.
 * - 2002:aabb:ccdd::/48 (6to4): bits 16 to 48.
 * - 2001:0:ssss:ssss:ffff:pppp:cccc:cccc (Teredo, RFC 4380): the server, and the client (stored
 *   inverted); both must pass.
 */
export function carriedIPv4(address: ipaddr.IPv6): ipaddr.IPv4[] | undefined {
  const bytes = address.toByteArray();
  const zero = (from: number, to: number) => bytes.slice(from, to).every((byte) => byte === 0);
  const last32 = [12, 13, 14, 15];
  if (zero(0, 12)) return [ipv4At(bytes, last32)];
  const range = address.range();
  if (range === 'ipv4Mapped' || range === 'rfc6145') return [ipv4At(bytes, last32)];
  if (range === 'rfc6052') {
    if (bytes[4] === 0 && bytes[5] === 0 && zero(6, 12)) return [ipv4At(bytes, last32)];
    const readings = [ipv4At(bytes, last32)];
    // Bits 64 to 71 (the "u" octet) are zero in every RFC 6052 form shorter than /96.
    if (bytes[8] === 0) {
      readings.push(
        ipv4At(bytes, [6, 7, 9, 10]), // /48
        ipv4At(bytes, [7, 9, 10, 11]), // /56
        ipv4At(bytes, [9, 10, 11, 12]), // /64
      );
    }
    return readings;
  }
  if (range === '6to4') return [ipv4At(bytes, [2, 3, 4, 5])];
  if (range === 'teredo') {
    const client = new ipaddr.IPv4(last32.map((index) => bytes[index] ^ 0xff));
    return [ipv4At(bytes, [4, 5, 6, 7]), client];
  }
  return undefined;
}

/**
 * The only IPv6 addresses a webhook may reach on its own (not carrying an IPv4 address): global
 * unicast, 2000::/3 (RFC 4291), minus what IANA's special-purpose registry and ipaddr.js mark as
 * not globally reachable inside it (IETF protocol assignments 2001::/23, documentation
 * 2001:db8::/32 and 3fff::/20, ORCHID, AS112, benchmarking...). An allow-list, so a range added
 * to IPv6 later is refused until someone decides otherwise.
 */
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3') as [ipaddr.IPv6, number];
function isPublicIPv6(address: ipaddr.IPv6): boolean {
  return address.match(GLOBAL_UNICAST) && address.range() === 'unicast';
}

/** Whether an address is an ordinary public unicast one, judging what an IPv6 one carries. */
function isPublic(address: Address): boolean {
  if (address.kind() === 'ipv4') return address.range() === 'unicast';
  const carried = carriedIPv4(address as ipaddr.IPv6);
  if (carried) return carried.every((inner) => inner.range() === 'unicast');
  return isPublicIPv6(address as ipaddr.IPv6);
}

export class AddressPolicy {
  private readonly allowed: [Address, number][];

  constructor(allowedNetworks: readonly string[]) {
    this.allowed = allowedNetworks.map((cidr) => ipaddr.parseCIDR(cidr));
  }

  /** Whether any network is exempt: only then may an endpoint use plain http. */
  get allowsPrivateNetworks(): boolean {
    return this.allowed.length > 0;
  }

  /** Whether `text`, an IP address, lies in an allowed network (in any of its spellings). */
  isInAllowedNetwork(text: string): boolean {
    const address = parse(text);
    if (!address) return false;
    const within = (spelling: Address) =>
      this.allowed.some(
        ([network, bits]) => network.kind() === spelling.kind() && spelling.match(network, bits),
      );
    if (within(address)) return true;
    const carried = address.kind() === 'ipv6' ? carriedIPv4(address as ipaddr.IPv6) : undefined;
    return carried !== undefined && carried.every(within);
  }

  /** Whether nothing may be sent to the IP address `text`. */
  isRefused(text: string): boolean {
    if (this.isInAllowedNetwork(text)) return false;
    const address = parse(text);
    return !address || !isPublic(address);
  }

  /**
   * The problem with an endpoint's URL at registration, or undefined: absolute https (http only
   * while some network is allowed), no credentials, no port 0, no refused IP literal, not `localhost` nor
   * `*.localhost`. A name is resolved at each attempt, where its addresses are judged.
   */
  urlProblem(text: string): string | undefined {
    if (text.length > MAX_URL_LENGTH) return `url must be at most ${MAX_URL_LENGTH} characters.`;
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      return 'url must be an absolute URL.';
    }
    const literal = ipLiteralOf(url.hostname);
    if (url.protocol === 'http:') {
      const allowed =
        literal === undefined ? this.allowsPrivateNetworks : this.isInAllowedNetwork(literal);
      if (!allowed) return 'url must use https (plain http only inside WEBHOOK_ALLOWED_NETWORKS).';
    } else if (url.protocol !== 'https:') {
      return 'url must use https.';
    }
    if (url.username !== '' || url.password !== '') return 'url must not carry credentials.';
    // Port 0 is no port a receiver listens on: a connection to it fails (or, on some stacks, is
    // given a port the system picks), so such an endpoint could never be delivered to as written.
    if (url.port === '0') return 'url must not name port 0.';
    if (literal !== undefined) {
      if (this.isRefused(literal)) {
        return `url must not point at a loopback, private, link-local or reserved address (${literal}).`;
      }
      return undefined;
    }
    const name = url.hostname.toLowerCase().replace(/\.$/, '');
    if (name === 'localhost' || name.endsWith('.localhost')) {
      return 'url must not point at localhost.';
    }
    return undefined;
  }
}

function parse(text: string): Address | undefined {
  try {
    return ipaddr.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The IP address a URL's host names, or undefined for a name. WHATWG URL parsing has already
 * turned every IPv4 spelling (decimal, hex, octal, shortened) into dotted decimal and put IPv6 in
 * brackets; anything else that parses as an address is one too.
 */
export function ipLiteralOf(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  return ipaddr.isValid(bare) && (bare.includes(':') || ipaddr.IPv4.isValidFourPartDecimal(bare))
    ? bare
    : undefined;
}
