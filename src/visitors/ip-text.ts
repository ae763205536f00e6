/**
 * IP addresses in text, read by hand: a request from a new address reads one (its
 * forwarded header) before anything else, and Node's `net.isIP` runs a regular expression
 * of ~2,000 characters on every IPv6 address (0.4 µs each, the largest single cost of a
 * new IPv6 visitor in the flood bench, profiled). This takes exactly what `net.isIP` takes
 * (a property test holds the two equal) in one pass, and keeps the last IPv6 address's groups
 * for its visitor key.
 */

/** The last IPv6 address read, and its eight 16-bit groups. */
let lastIpv6: string | undefined;
const groups = new Uint16Array(8);

/** 4 or 6 when `text` is an IP address as `net.isIP` takes one (IPv6 zone ids included), else 0. */
export function ipVersion(text: string): 0 | 4 | 6 {
  if (!text.includes(':')) return ipv4Value(text, 0, text.length) >= 0 ? 4 : 0;
  return ipv6GroupsOf(text) ? 6 : 0;
}

/**
 * The eight 16-bit groups of an IPv6 address, in an array valid until the next call, or
 * undefined when `text` is none. The address ipVersion just checked is not read again.
 */
export function ipv6GroupsOf(text: string): Uint16Array | undefined {
  if (text === lastIpv6) return groups;
  lastIpv6 = undefined;
  if (!readIpv6(text)) return undefined;
  lastIpv6 = text;
  return groups;
}

/**
 * The 32-bit value of the dotted quad in text[from, to), or -1: four decimal parts of at
 * most 255, without leading zeros (as Node's pattern).
 */
function ipv4Value(text: string, from: number, to: number): number {
  let value = 0;
  let parts = 0;
  let i = from;
  while (parts < 4) {
    let part = 0;
    const start = i;
    for (; i < to && i - start < 3; i++) {
      const c = text.charCodeAt(i);
      if (c < 48 || c > 57) break;
      part = part * 10 + c - 48;
    }
    if (i === start || part > 255 || (i - start > 1 && text.charCodeAt(start) === 48)) return -1;
    value = value * 256 + part;
    if (++parts < 4) {
      if (text.charCodeAt(i) !== 46 || i >= to) return -1; // '.'
      i++;
    }
  }
  return i === to ? value : -1;
}

function readIpv6(text: string): boolean {
  let end = text.indexOf('%');
  if (end < 0) end = text.length;
  else if (!validZone(text, end + 1)) return false;
  const gap = text.indexOf('::');
  if (gap < 0 || gap >= end) return readGroups(text, 0, end, true, 0) === 8;
  const second = text.indexOf('::', gap + 1);
  if (second >= 0 && second < end) return false; // one gap at most (`:::` too)
  const head = readGroups(text, 0, gap, false, 0);
  if (head < 0) return false;
  const tail = readGroups(text, gap + 2, end, true, head);
  if (tail < 0 || head + tail > 7) return false; // the gap stands for one group at least
  // The tail was read after the head; it belongs at the end, zeros between (by hand:
  // the typed arrays' copyWithin and fill cost more than these few moves).
  for (let i = tail - 1; i >= 0; i--) groups[8 - tail + i] = groups[head + i] as number;
  for (let i = head; i < 8 - tail; i++) groups[i] = 0;
  return true;
}

/**
 * Reads the `:`-separated groups of text[from, to) into groups from `at` (a last part
 * may be a dotted quad, two groups, where `ipv4Last`); how many, or -1 if any is no group.
 */
function readGroups(text: string, from: number, to: number, ipv4Last: boolean, at: number): number {
  if (from === to) return 0;
  let n = at;
  for (let start = from; ; ) {
    let stop = text.indexOf(':', start);
    if (stop < 0 || stop > to) stop = to;
    if (stop === to && ipv4Last && text.lastIndexOf('.', to - 1) >= start) {
      const v4 = ipv4Value(text, start, to);
      if (v4 < 0 || n > 6) return -1;
      groups[n++] = Math.floor(v4 / 65536);
      groups[n++] = v4 % 65536;
      return n - at;
    }
    if (stop === start || stop - start > 4 || n > 7) return -1;
    let value = 0;
    for (let i = start; i < stop; i++) {
      const digit = hexValue(text.charCodeAt(i));
      if (digit < 0) return -1;
      value = value * 16 + digit;
    }
    groups[n++] = value;
    if (stop === to) return n - at;
    start = stop + 1;
  }
}

function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48; // 0-9
  const lower = c | 32;
  return lower >= 97 && lower <= 102 ? lower - 87 : -1; // a-f, A-F
}

/** Node's zone ids: one or more of [0-9a-zA-Z-.:]. */
function validZone(text: string, from: number): boolean {
  if (from >= text.length) return false;
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const lower = c | 32;
    if (!((c >= 48 && c <= 58) || (lower >= 97 && lower <= 122) || c === 45 || c === 46)) return false;
  }
  return true;
}
