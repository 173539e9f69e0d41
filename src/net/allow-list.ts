import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** `::a.b.c.d`, deprecated IPv4-compatible addresses: ipaddr.js calls them unicast, but they only ever carry IPv4. */
const IPV4_COMPATIBLE = ipaddr.IPv6.parseCIDR('::/96');

/** The standard ports of the protocols whose destinations an allow-list admits: what an entry without a port admits. */
export const HTTP_PORTS: readonly number[] = [80, 443];
export const SMTP_PORTS: readonly number[] = [25, 465, 587];

/**
 * Destinations that may be reached although they are not public unicast: internal hosts named by host, address or
 * CIDR, each with a port, `*` for every port, or none for the protocol's standard ports only.
 */
export interface HostAllowList {
  /** Whether the host name itself is listed for this port (by name, or as an address literal inside a listed range). */
  allowsHost(hostname: string, port: number): boolean;
  /** Whether a resolved address lies in a range listed for this port. */
  allowsAddress(address: string, port: number): boolean;
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
const HOST_NAME = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.?$/i;

/** The ports an entry admits: one, every one, or the protocol's standard ones. */
type Ports = number | 'any' | 'standard';

/** `[v6 or v6 CIDR]:port`, `name-or-v4-or-v4-CIDR:port`, or an entry without a port (bare IPv6 included). */
function splitPort(entry: string): [string, Ports] {
  const bracketed = /^\[([^\]]+)\](?::(.*))?$/.exec(entry);
  const [target, port] = bracketed ? [bracketed[1], bracketed[2]] : entry.split(':').length === 2 ? entry.split(':') : [entry, undefined];
  if (port === undefined) return [target, 'standard'];
  if (port === '*') return [target, 'any'];
  const number = /^\d{1,5}$/.test(port) ? Number(port) : 0;
  if (number < 1 || number > 65535) throw new Error(`"${entry}" names no valid port (1-65535 or *)`);
  return [target, number];
}

/**
 * Reads a comma-separated list of host names, addresses and CIDRs, each optionally followed by `:port` or `:*`
 * (`mirror.internal:8443, 10.1.2.3, 10.8.0.0/16:*, [fd12::1]:25`). An entry without a port admits only
 * `standardPorts` (the using protocol's), so listing `127.0.0.1` for web requests does not open Redis on 6379.
 * Throws on an entry that is none of them, so a typo fails at start-up instead of opening a hole.
 */
export function parseAllowList(text: string | readonly string[], standardPorts: readonly number[]): HostAllowList {
  const entries = (typeof text === 'string' ? text.split(',') : text).map((entry) => entry.trim()).filter(Boolean);
  const names: [string, Ports][] = [];
  const ranges: [Address, number, Ports][] = [];
  for (const entry of entries) {
    const [target, ports] = splitPort(entry);
    if (target.includes('/')) {
      if (!ipaddr.isValidCIDR(target)) throw new Error(`"${entry}" is not a valid CIDR`);
      ranges.push([...ipaddr.parseCIDR(target), ports]);
      continue;
    }
    const address = parseAddress(target);
    if (address) {
      ranges.push([address, address.kind() === 'ipv4' ? 32 : 128, ports]);
      continue;
    }
    if (!HOST_NAME.test(target)) throw new Error(`"${entry}" is neither a host name, an IP address nor a CIDR`);
    names.push([normaliseName(target), ports]);
  }
  const admits = (ports: Ports, port: number) => ports === 'any' || (ports === 'standard' ? standardPorts.includes(port) : ports === port);
  const allowsAddress = (text: string, port: number) => {
    const address = parseAddress(text);
    if (!address) return false;
    const candidate = comparable(address);
    return ranges.some(([range, bits, ports]) => range.kind() === candidate.kind() && candidate.match(range, bits) && admits(ports, port));
  };
  return {
    allowsHost: (hostname, port) =>
      names.some(([name, ports]) => name === normaliseName(hostname) && admits(ports, port)) || allowsAddress(hostname, port),
    allowsAddress,
  };
}

export const EMPTY_ALLOW_LIST: HostAllowList = parseAllowList('', []);
