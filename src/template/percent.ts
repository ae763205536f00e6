/** Go's net/url percent-encoding of a string's UTF-8 bytes, for urlquery and urlJoin. */
import { checkLength } from './bounds.js';
import { SCAN_STEP, scanned } from './budget.js';

/**
 * Each byte of s whose character keep() accepts as is, a space as `space` when given, any
 * other byte as %XX. Built in a loop whose length is checked as it grows (the text can triple).
 */
export function percentEncode(s: string, keep: (c: string) => boolean, space?: string): string {
  const bytes = Buffer.from(s, 'utf8');
  let out = '';
  for (let i = 0; i < bytes.length; i++) {
    if (i % SCAN_STEP === SCAN_STEP - 1) {
      scanned();
      checkLength(out.length);
    }
    const b = bytes[i] ?? 0;
    const c = String.fromCharCode(b);
    if (keep(c)) out += c;
    else if (c === ' ' && space !== undefined) out += space;
    else out += '%' + b.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}
