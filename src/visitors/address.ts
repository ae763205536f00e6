import { BlockList, isIP, isIPv4, isIPv6 } from 'node:net';

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
    return isIP(address) !== 0 && !contains(trusted, address) ? address : peer;
  }
  const candidates: string[] = [];
  for (const part of forwarded.toLowerCase().split(',')) {
    const forValue = /for="?\[?([^\]";]+)\]?"?/.exec(part)?.[1];
    const address = (forValue ?? part).trim();
    if ((isIPv4(address) || isIPv6(address)) && !contains(trusted, address)) candidates.push(address);
  }
  return candidates.at(-1) ?? peer;
}

/**
 * The visitor an IP address counts as: the address itself, or its network when fewer prefix
 * bits are configured — IPv6 clients usually hold a whole /64, so ntfy groups them by it.
 */
export function visitorKey(address: string, ipv4Bits: number, ipv6Bits: number): string {
  // `address` comes from clientAddress or the socket, so it is an IP address already
  // checked: a colon tells the family without running the validating patterns again.
  if (!address.includes(':')) return ipv4Bits >= 32 || !isIPv4(address) ? address : `${mask(ipv4Bytes(address), ipv4Bits).join('.')}/${ipv4Bits}`;
  if (ipv6Bits >= 128) return address;
  const groups = ipv6Groups(address);
  let key = '';
  for (let i = 0; i < 8; i++) {
    const keep = Math.max(0, Math.min(16, ipv6Bits - i * 16));
    key += `${i === 0 ? '' : ':'}${((groups[i] as number) & ((0xffff << (16 - keep)) & 0xffff)).toString(16)}`;
  }
  return `${key}/${ipv6Bits}`;
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

/** Reused by ipv6Groups: one array for the process instead of one per request. */
const scratch = new Uint16Array(8);

/**
 * The eight 16-bit groups of a valid IPv6 address, in a shared array valid until the next
 * call. Run on every request from an IPv6 client, so it reads characters rather than
 * splitting strings (in an address flood the garbage of splitting cost the GC more than
 * the parsing), and tries the IPv4-suffix pattern only on addresses with a dot.
 */
function ipv6Groups(address: string): Uint16Array {
  const zone = address.indexOf('%');
  let text = zone < 0 ? address : address.slice(0, zone);
  // An embedded IPv4 address (::ffff:1.2.3.4) is written as its two hex groups first.
  const dotted = text.includes('.') ? /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text) : null;
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  scratch.fill(0);
  const gap = text.indexOf('::');
  const headEnd = gap < 0 ? text.length : gap;
  const count = readGroups(text, 0, headEnd, 0);
  if (gap >= 0) {
    let tail = 0; // groups after the gap, read right to left into the end of the array
    let value = 0;
    let shift = 0;
    for (let i = text.length - 1; i >= gap + 2; i--) {
      const c = text.charCodeAt(i);
      if (c === 58) {
        scratch[7 - tail++] = value;
        value = shift = 0;
      } else {
        value |= hexValue(c) << shift;
        shift += 4;
      }
    }
    if (shift > 0 && 7 - tail >= count) scratch[7 - tail] = value;
  }
  return scratch;
}

/** Reads the colon-separated hex groups of text[from, to) into scratch from `at`; how many. */
function readGroups(text: string, from: number, to: number, at: number): number {
  if (from >= to) return 0;
  let value = 0;
  let n = at;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 58) {
      scratch[n++] = value;
      value = 0;
    } else {
      value = (value << 4) | hexValue(c);
    }
  }
  scratch[n++] = value;
  return n - at;
}

function hexValue(c: number): number {
  if (c <= 57) return c - 48; // 0-9
  return (c | 32) - 87; // a-f, A-F
}
