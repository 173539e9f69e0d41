import { lookup as systemLookup, type LookupAddress } from 'node:dns';
import { DomainError } from '../errors.ts';
import { isPublicUnicast, parseAddress, type HostAllowList } from './allow-list.ts';

/** An outgoing connection went, or would have gone, somewhere it may not: a non-public address, another host, a bad scheme. */
export class DestinationRefusedError extends DomainError {
  override readonly status = 400;
  override readonly code = 'DESTINATION_NOT_ALLOWED';
}

/** Resolves a host name to every address it has (the system resolver by default; tests substitute their own). */
export type Resolve = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolve: Resolve = (hostname) =>
  new Promise((resolve, reject) =>
    systemLookup(hostname, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
  );

/** Whether a connection to this address and port may be made: a public unicast address, or one listed for the port. */
export const isAllowedAddress = (allowList: HostAllowList, address: string, port: number) => {
  const parsed = parseAddress(address);
  return parsed !== null && (isPublicUnicast(parsed) || allowList.allowsAddress(address, port));
};

/**
 * The addresses a connection to `hostname:port` may use: resolved once, those not allowed dropped (all kept when the
 * host name itself is listed for the port). Connect to one of these, never to a second answer of the resolver, so
 * a name that rebinds to an internal address gets nowhere. Throws DestinationRefusedError when none is left.
 */
export async function allowedAddresses(
  hostname: string,
  port: number,
  allowList: HostAllowList,
  resolve: Resolve = systemResolve,
): Promise<LookupAddress[]> {
  const literal = parseAddress(hostname);
  const addresses = literal ? [{ address: literal.toString(), family: literal.kind() === 'ipv4' ? 4 : 6 }] : await resolve(hostname);
  const allowed = allowList.allowsHost(hostname, port)
    ? addresses
    : addresses.filter(({ address }) => isAllowedAddress(allowList, address, port));
  if (!allowed.length) {
    throw new DestinationRefusedError(literal ? `${hostname} is not a public address` : `${hostname} resolves to no public address`);
  }
  return allowed;
}
