/** Sprig's encoding and checksum functions; decoding errors come back as the result text, as in Sprig. */
import { createHash } from 'node:crypto';
import { SCAN_STEP, scanned } from '../budget.js';
import { goDecode } from '../bytestring.js';
import { fn, type GoFunc } from '../funcs.js';

const B32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

function b32enc(s: string): string {
  const bytes = Buffer.from(s, 'utf8');
  let out = '';
  for (let i = 0; i < bytes.length; i += 5) {
    if (i % (5 * SCAN_STEP) === 0) scanned();
    const chunk = bytes.subarray(i, i + 5);
    let bits = 0n;
    for (let j = 0; j < 5; j++) bits = (bits << 8n) | BigInt(chunk[j] ?? 0);
    const chars = Math.ceil((chunk.length * 8) / 5);
    for (let j = 0; j < 8; j++) out += j < chars ? B32[Number((bits >> BigInt(35 - j * 5)) & 31n)] : '=';
  }
  return out;
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
    if (i % (block * SCAN_STEP) === 0) scanned();
    const quantum = clean.slice(i, i + block);
    const pad = quantum.indexOf('=');
    const data = pad < 0 ? quantum : quantum.slice(0, pad);
    if (pad >= 0 && (!/^=+$/.test(quantum.slice(pad)) || i + block < clean.length)) return illegal(i + pad);
    let bits = 0n;
    for (let j = 0; j < data.length; j++) {
      const v = alphabet.indexOf(data[j] ?? '');
      if (v < 0) return illegal(i + j);
      bits = (bits << BigInt(bitsPer)) | BigInt(v);
    }
    const nbytes = Math.floor((data.length * bitsPer) / 8);
    if (pad >= 0 && (data.length * bitsPer) % 8 >= bitsPer) return illegal(i + pad);
    bits >>= BigInt(data.length * bitsPer - nbytes * 8);
    for (let j = nbytes - 1; j >= 0; j--) out.push(Number((bits >> BigInt(j * 8)) & 255n));
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
