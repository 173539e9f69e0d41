import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** `::a.b.c.d`, deprecated IPv4-compatible addresses: ipaddr.js calls them unicast, but they only ever carry IPv4. */
const IPV4_COMPATIBLE = ipaddr.IPv6.parseCIDR('::/96');

/** Hosts that may be reached although they are not public unicast: internal mirrors named by host, address or CIDR. */
export interface HostAllowList {
  /** Whether the URL's host name itself is listed (by name, or as an address literal inside a listed range). */
  allowsHost(hostname: string): boolean;
  /** Whether a resolved address lies in a listed address or CIDR. */
  allowsAddress(address: string): boolean;
}

/**
 * The address an IPv6 literal (`::1`, `[::1]`) or a dotted-decimal IPv4 literal stands for, or null for a host
 * name. Only canonical IPv4 forms count: WHATWG URL parsing already turns `2130706433`, `0177.0.0.1` and `0x7f.1`
 * into `127.0.0.1`, and an allow-list entry should say what it means.
 */
export function parseAddress(host: string): Address | null {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (ipaddr.IPv4.isValidFourPartDecimal(bare)) return ipaddr.IPv4.parse(bare);
  return ipaddr.IPv6.isValid(bare) ? ipaddr.IPv6.parse(bare) : null;
}

/**
 * Whether an address may be connected to without being listed: only what ipaddr.js classifies as `unicast`.
 * Everything else — private, loopback, link-local (cloud metadata), CGNAT, unspecified, multicast, broadcast,
 * reserved, unique-local, IPv4-mapped, NAT64, 6to4, Teredo — is refused, a stricter rule than any typed list.
 */
export const isPublicUnicast = (address: Address) =>
  address.range() === 'unicast' && !(address.kind() === 'ipv6' && (address as ipaddr.IPv6).match(IPV4_COMPATIBLE));

/** IPv4-mapped IPv6 addresses compare with IPv4 entries as the IPv4 address they carry. */
const comparable = (address: Address): Address =>
  address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() ? (address as ipaddr.IPv6).toIPv4Address() : address;

const normaliseName = (name: string) => name.trim().toLowerCase().replace(/\.$/, '');

/**
 * Reads a comma-separated list of host names, addresses and CIDRs (`mirror.internal, 10.1.2.3, 10.8.0.0/16,
 * fd12::/48`). Throws on an entry that is none of them, so a typo fails at start-up instead of opening a hole.
 */
export function parseAllowList(text: string | readonly string[]): HostAllowList {
  const entries = (typeof text === 'string' ? text.split(',') : text).map((entry) => entry.trim()).filter(Boolean);
  const names = new Set<string>();
  const ranges: [Address, number][] = [];
  for (const entry of entries) {
    if (entry.includes('/')) {
      if (!ipaddr.isValidCIDR(entry)) throw new Error(`"${entry}" is not a valid CIDR`);
      ranges.push(ipaddr.parseCIDR(entry));
      continue;
    }
    const address = parseAddress(entry);
    if (address) {
      ranges.push([address, address.kind() === 'ipv4' ? 32 : 128]);
      continue;
    }
    if (!/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.?$/i.test(entry)) {
      throw new Error(`"${entry}" is neither a host name, an IP address nor a CIDR`);
    }
    names.add(normaliseName(entry));
  }
  const allowsAddress = (text: string) => {
    const address = parseAddress(text);
    if (!address) return false;
    const candidate = comparable(address);
    return ranges.some(([range, bits]) => range.kind() === candidate.kind() && candidate.match(range, bits));
  };
  return {
    allowsHost: (hostname) => names.has(normaliseName(hostname)) || allowsAddress(hostname),
    allowsAddress,
  };
}

export const EMPTY_ALLOW_LIST: HostAllowList = parseAllowList('');
