import { isUtf8 } from 'node:buffer';

/**
 * Go strings are bytes, so `trunc`, `substr`, `slice` and `b64dec` can leave a character cut
 * in two. ntfy's JSON encoder then writes U+FFFD for each stray byte (encoding/json), so the
 * 4-byte 🔥 cut after 2 bytes reaches clients as two U+FFFD; Node's decoder would write one
 * (WHATWG's "maximal subpart"). This decodes as Go's utf8.DecodeRune reads: a byte that does
 * not start a valid sequence is one U+FFFD.
 */
export function goDecode(bytes: Uint8Array): string {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (isUtf8(buf)) return buf.toString('utf8');
  let out = '';
  let start = 0; // first byte of the current run of valid sequences
  let i = 0;
  while (i < buf.length) {
    const size = sequenceLength(buf, i);
    if (size > 0) {
      i += size;
      continue;
    }
    out += buf.toString('utf8', start, i) + '\ufffd';
    i += 1;
    start = i;
  }
  return out + buf.toString('utf8', start, i);
}

/** The length of the valid UTF-8 sequence at i, or 0 (Go's first-byte table and accept ranges). */
function sequenceLength(b: Buffer, i: number): number {
  const c = b[i] ?? 0;
  if (c < 0x80) return 1;
  let size: number;
  let lo = 0x80;
  let hi = 0xbf;
  if (c >= 0xc2 && c <= 0xdf) size = 2;
  else if (c >= 0xe0 && c <= 0xef) {
    size = 3;
    if (c === 0xe0) lo = 0xa0; // overlong
    if (c === 0xed) hi = 0x9f; // surrogates
  } else if (c >= 0xf0 && c <= 0xf4) {
    size = 4;
    if (c === 0xf0) lo = 0x90; // overlong
    if (c === 0xf4) hi = 0x8f; // past U+10FFFF
  } else return 0;
  if (i + size > b.length) return 0;
  const second = b[i + 1] ?? 0;
  if (second < lo || second > hi) return 0;
  for (let k = 2; k < size; k++) {
    const cont = b[i + k] ?? 0;
    if (cont < 0x80 || cont > 0xbf) return 0;
  }
  return size;
}
