import ipaddr from 'ipaddr.js';
import { MAX_URL_LENGTH } from '../domain/webhook-endpoint';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** The IPv6 ranges that carry an IPv4 address, and where: it is judged as that address. */
function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const range = address.range();
  const bytes = address.toByteArray();
  // ::ffff:a.b.c.d (mapped), ::ffff:0:a.b.c.d (translated, RFC 6145), 64:ff9b::a.b.c.d (NAT64,
  // RFC 6052's well-known /96): the last 32 bits.
  const wellKnownNat64 = range === 'rfc6052' && bytes.slice(4, 12).every((byte) => byte === 0);
  if (range === 'ipv4Mapped' || range === 'rfc6145' || wellKnownNat64) {
    return new ipaddr.IPv4(bytes.slice(12, 16));
  }
  // 2002:aabb:ccdd::/48 (6to4): bits 16 to 48.
  if (range === '6to4') return new ipaddr.IPv4(bytes.slice(2, 6));
  return undefined;
}

/**
 * Where webhooks may be sent (docs/adr/0031). An address is refused unless it is an ordinary
 * public unicast address: loopback, private, link-local (169.254.169.254 among them), CGNAT,
 * unique-local, unspecified, multicast, broadcast, reserved and documentation ranges are refused,
 * in any spelling (an IPv4 address inside IPv6, mapped, translated, NAT64 or 6to4, is judged as
 * that IPv4 address; other NAT64 prefixes and Teredo, whose target cannot be told, are refused).
 * The allowed networks (WEBHOOK_ALLOWED_NETWORKS) are exempt, and in them plain http is allowed.
 * Ranges come from ipaddr.js, not from a table of our own.
 */
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
    const spellings: Address[] = [address];
    if (address.kind() === 'ipv6') {
      const inner = embeddedIPv4(address as ipaddr.IPv6);
      if (inner) spellings.push(inner);
    }
    return spellings.some((spelling) =>
      this.allowed.some(
        ([network, bits]) => network.kind() === spelling.kind() && spelling.match(network, bits),
      ),
    );
  }

  /** Whether nothing may be sent to the IP address `text`. */
  isRefused(text: string): boolean {
    if (this.isInAllowedNetwork(text)) return false;
    const address = parse(text);
    if (!address) return true;
    if (address.kind() === 'ipv4') return address.range() !== 'unicast';
    const inner = embeddedIPv4(address as ipaddr.IPv6);
    if (inner) return inner.range() !== 'unicast';
    return address.range() !== 'unicast';
  }

  /**
   * The problem with an endpoint's URL at registration, or undefined: absolute https (http only
   * while some network is allowed), no credentials, no refused IP literal, not `localhost` nor
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
