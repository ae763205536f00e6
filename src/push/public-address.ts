import { promises as dns, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/** Resolves a host name to its addresses, as dns.lookup with `all: true` (the hosts file, then DNS). */
export type HostResolver = (host: string) => Promise<LookupAddress[]>;

export const systemResolver: HostResolver = (host) => dns.lookup(host, { all: true, verbatim: true });

/** Thrown when a push service's host resolves to an address no public push service has, or not at all. */
export class NotPublicHost extends Error {}

/**
 * Addresses a push service on the internet never has: a browser's endpoint that resolves to
 * one points the server's signed POST at its own network (issue 33, finding 5). BlockList
 * matches an IPv4-mapped IPv6 address (::ffff:127.0.0.1) against the IPv4 ranges too.
 */
const notPublic = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network", 0.0.0.0 (unspecified) included
  ['10.0.0.0', 8], // RFC 1918
  ['100.64.0.0', 10], // CGNAT (RFC 6598)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata services live here)
  ['172.16.0.0', 12], // RFC 1918
  ['192.168.0.0', 16], // RFC 1918
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast included
] as const) notPublic.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['fc00::', 7], // unique local (ULA)
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const) notPublic.addSubnet(net, prefix, 'ipv6');

export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  return family !== 0 && !notPublic.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * The host's addresses, when every one is public (one private answer among public ones is
 * enough to be refused: the connection may pick it). A resolver that has not answered
 * within `timeoutMs` is given up on; getaddrinfo cannot be cancelled, so it finishes in
 * the background, in libuv's thread pool.
 */
export async function publicAddresses(host: string, resolve: HostResolver, timeoutMs: number): Promise<LookupAddress[]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new NotPublicHost(`${host} did not resolve within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const addresses = await Promise.race([resolve(host), timeout]).catch((err: unknown) => {
      throw err instanceof NotPublicHost ? err : new NotPublicHost(`${host} does not resolve: ${(err as Error).message}`);
    });
    const refused = addresses.find((a) => !isPublicAddress(a.address));
    if (addresses.length === 0 || refused) throw new NotPublicHost(`${host} resolves to ${refused?.address ?? 'nothing'}, not a public address`);
    return addresses;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A `lookup` for net.connect that only ever connects to a checked address: the host is
 * resolved once, its answer checked, and the socket opened to that answer, so a DNS answer
 * that changes between the check and the connection (rebinding) cannot slip through.
 * Node asks with `all: true` when it races IPv4 and IPv6 (autoSelectFamily), else for one.
 */
export function publicLookup(resolve: HostResolver, timeoutMs: number): LookupFunction {
  return (host, options, callback) => {
    publicAddresses(host, resolve, timeoutMs).then(
      (addresses) => {
        const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
        const first = wanted[0];
        if (!first) return callback(new NotPublicHost(`${host} has no IPv${String(options.family)} address`), '', 0);
        if (options.all) return callback(null, wanted);
        callback(null, first.address, first.family);
      },
      (err: Error) => callback(err, '', 0),
    );
  };
}
