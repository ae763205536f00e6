/** Go's net/url percent-encoding of a string's UTF-8 bytes, for urlquery and urlJoin. */
import { checkLength } from './bounds.js';
import { SCAN_STEP, scanned } from './budget.js';

/**
 * An encoder writing each byte whose character matches `keep` as is, a space as `space` when
 * given, and any other byte as %XX. Each byte's form is worked out once, here; the text is
 * built in a loop whose length is checked as it grows (it can triple).
 */
export function percentEncoder(keep: RegExp, space?: string): (s: string) => string {
  const forms = Array.from({ length: 256 }, (_, b) => {
    const c = String.fromCharCode(b);
    if (keep.test(c)) return c;
    if (c === ' ' && space !== undefined) return space;
    return '%' + b.toString(16).toUpperCase().padStart(2, '0');
  });
  return (s) => {
    const bytes = Buffer.from(s, 'utf8');
    let out = '';
    for (let i = 0; i < bytes.length; i++) {
      if (i % SCAN_STEP === SCAN_STEP - 1) {
        scanned();
        checkLength(out.length);
      }
      out += forms[bytes[i] ?? 0];
    }
    return out;
  };
}
