/** Sprig's encoding and checksum functions; decoding errors come back as the result text, as in Sprig. */
import { createHash } from 'node:crypto';
import { SCAN_STEP, scanned } from '../budget.js';
import { goDecode } from '../bytestring.js';
import { fn, type GoFunc } from '../funcs.js';

const B32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function b32enc(s: string): string {
  const bytes = Buffer.from(s, 'utf8');
  let out = '';
  let buffer = 0; // the bits not written yet are its low `bits` bits
  let bits = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (i % SCAN_STEP === SCAN_STEP - 1) scanned();
    buffer = ((buffer << 8) | (bytes[i] ?? 0)) & 0x1fff;
    bits += 8;
    for (; bits >= 5; bits -= 5) out += B32[(buffer >> (bits - 5)) & 31];
  }
  if (bits > 0) out += B32[(buffer << (5 - bits)) & 31];
  return out + '='.repeat((8 - (out.length % 8)) % 8);
}

/** Strict StdEncoding decoding; returns Go's "illegal ... data at input byte N" message on error. */
function decode(s: string, alphabet: string, block: number, bitsPer: number, kind: string): string {
  const clean = s.replace(/[\r\n]/g, '');
  const illegal = (i: number): string => `illegal ${kind} data at input byte ${i}`;
  if (clean.length % block !== 0) {
    for (let i = 0; i < clean.length; i++) if (!alphabet.includes(clean[i] ?? '') && clean[i] !== '=') return illegal(i);
    // Go's base32 reports short padding at the end of the input; base64 at the quantum's start.
    return illegal(kind === 'base32' && clean.includes('=') ? clean.length : clean.length - (clean.length % block));
  }
  const out: number[] = [];
  for (let i = 0; i < clean.length; i += block) {
    // A character here costs about four node visits (a slice, a test and a search per quantum).
    if (i % (SCAN_STEP / 4) < block) scanned();
    const quantum = clean.slice(i, i + block);
    const pad = quantum.indexOf('=');
    const data = pad < 0 ? quantum : quantum.slice(0, pad);
    if (pad >= 0 && (!/^=+$/.test(quantum.slice(pad)) || i + block < clean.length)) return illegal(i + pad);
    let buffer = 0; // the bits not written yet are its low `bits` bits
    let bits = 0;
    for (let j = 0; j < data.length; j++) {
      const v = alphabet.indexOf(data[j] ?? '');
      if (v < 0) return illegal(i + j);
      buffer = ((buffer << bitsPer) | v) & 0x3fff;
      bits += bitsPer;
      if (bits >= 8) {
        bits -= 8;
        out.push((buffer >> bits) & 255);
      }
    }
    if (pad >= 0 && bits >= bitsPer) return illegal(i + pad);
  }
  return goDecode(Buffer.from(out));
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function adler32(s: string): string {
  let a = 1;
  let b = 0;
  for (const byte of Buffer.from(s, 'utf8')) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  return String(b * 65536 + a);
}

const hash = (alg: string) => (s: string): string => createHash(alg).update(s, 'utf8').digest('hex');

export const encoding: Record<string, GoFunc> = {
  b64enc: fn('string', (s: string) => Buffer.from(s, 'utf8').toString('base64')),
  b64dec: fn('string', (s: string) => decode(s, B64, 4, 6, 'base64')),
  b32enc: fn('string', b32enc),
  b32dec: fn('string', (s: string) => decode(s, B32, 8, 5, 'base32')),
  sha1sum: fn('string', hash('sha1')),
  sha256sum: fn('string', hash('sha256')),
  sha512sum: fn('string', hash('sha512')),
  adler32sum: fn('string', adler32),
};
