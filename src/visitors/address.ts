import { BlockList, isIPv4, isIPv6 } from 'node:net';
import { ipv6GroupsOf, ipVersion } from './ip-text.js';

/**
 * A list of addresses and networks (`10.0.0.0/8`, `2001:db8::/32`, `1.2.3.4`) as ntfy's
 * proxy-trusted-hosts and visitor-request-limit-exempt-hosts take them. Host names are
 * not resolved; an entry that is no address is an error, naming it.
 */
export function networks(key: string, entries: readonly string[]): BlockList {
  const list = new BlockList();
  if (entries.length === 0) empty.add(list);
  for (const entry of entries) {
    const [address = '', bits] = entry.trim().split('/');
    const type = isIPv4(address) ? 'ipv4' : isIPv6(address) ? 'ipv6' : undefined;
    const prefix = bits === undefined ? undefined : Number(bits);
    const max = type === 'ipv4' ? 32 : 128;
    if (!type || (prefix !== undefined && !(Number.isInteger(prefix) && prefix >= 0 && prefix <= max))) {
      throw new Error(`invalid ${key} entry ${JSON.stringify(entry)}: expected an IP address or a network like 10.0.0.0/8`);
    }
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, prefix, type);
  }
  return list;
}

/**
 * Lists made without entries, the usual case: `contains` answers them at once, as
 * `BlockList.check` builds a SocketAddress per call (~5 µs here, most of a new visitor's
 * cost in an address flood, profiled).
 */
const empty = new WeakSet<BlockList>();

export function contains(list: BlockList, address: string): boolean {
  if (empty.has(list)) return false;
  const type = isIPv4(address) ? 'ipv4' : isIPv6(address) ? 'ipv6' : undefined;
  return type !== undefined && list.check(address, type);
}

/**
 * The client's address (ntfy's extractIPAddress): behind a proxy, the right-most address
 * of the forwarded header that is not a trusted proxy — X-Forwarded-For lists or RFC 7239
 * `for=` entries; else, or when the header has none, the peer's address.
 */
export function clientAddress(peer: string, forwarded: string | undefined, trusted: BlockList): string {
  if (forwarded === undefined) return peer;
  if (!forwarded.includes(',') && !forwarded.includes('=')) {
    // One bare address, what a proxy usually sends: no list to split, no `for=` to match.
    const address = forwarded.trim().toLowerCase();
    return ipVersion(address) !== 0 && !contains(trusted, address) ? address : peer;
  }
  const candidates: string[] = [];
  for (const part of forwarded.toLowerCase().split(',')) {
    const forValue = /for="?\[?([^\]";]+)\]?"?/.exec(part)?.[1];
    const address = (forValue ?? part).trim();
    if (ipVersion(address) !== 0 && !contains(trusted, address)) candidates.push(address);
  }
  return candidates.at(-1) ?? peer;
}

/**
 * The visitor an IP address counts as: the address itself, or its network when fewer prefix
 * bits are configured — IPv6 clients usually hold a whole /64, so ntfy groups them by it.
 */
export function visitorKey(address: string, ipv4Bits: number, ipv6Bits: number): string {
  // `address` comes from clientAddress or the socket, so it is an IP address already
  // checked: a colon tells the family.
  if (!address.includes(':')) return ipv4Bits >= 32 || !isIPv4(address) ? address : `${mask(ipv4Bytes(address), ipv4Bits).join('.')}/${ipv4Bits}`;
  const groups = ipv6Bits >= 128 ? undefined : ipv6GroupsOf(address);
  if (!groups) return address;
  let key = '';
  for (let i = 0; i < 8; i++) {
    const keep = Math.max(0, Math.min(16, ipv6Bits - i * 16));
    const group = keep === 0 ? '0' : ((groups[i] as number) & ((0xffff << (16 - keep)) & 0xffff)).toString(16);
    key = i === 0 ? group : `${key}:${group}`;
  }
  return `${key}/${ipv6Bits}`;
}

/** The visitor network of an address as `address/bits`, the bits written even for a whole address (the ban feed's lines). */
export function visitorNetwork(address: string, ipv4Bits: number, ipv6Bits: number): string {
  const key = visitorKey(address, ipv4Bits, ipv6Bits);
  return key.includes('/') ? key : `${key}/${address.includes(':') ? 128 : 32}`;
}

function mask(bytes: number[], bits: number): number[] {
  return bytes.map((b, i) => {
    const keep = Math.max(0, Math.min(8, bits - i * 8));
    return b & ((0xff << (8 - keep)) & 0xff);
  });
}

function ipv4Bytes(address: string): number[] {
  return address.split('.').map(Number);
}
