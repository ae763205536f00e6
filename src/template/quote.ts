/** Go's strconv.Quote family and unicode.IsPrint, as fmt's %q and Sprig's quote use them. */
import { checkLength } from './bounds.js';
import { SCAN_STEP, scanned } from './budget.js';

const printable = /[\p{L}\p{M}\p{N}\p{P}\p{S}]/u;

/** unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
export const isPrint = (ch: string): boolean => ch === ' ' || printable.test(ch);

const escapes: Record<string, string> = {
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
};

const hex = (n: number, width: number): string => n.toString(16).padStart(width, '0');

function escapeRune(ch: string, q: string, asciiOnly: boolean): string {
  const cp = ch.codePointAt(0) ?? 0;
  if (ch === q || ch === '\\') return '\\' + ch;
  if (cp < 0x80 ? isPrint(ch) : !asciiOnly && isPrint(ch)) return ch;
  const e = escapes[ch];
  if (e !== undefined) return e;
  if (cp < 0x20 || cp === 0x7f) return '\\x' + hex(cp, 2);
  if (cp >= 0xd800 && cp < 0xe000) return '\\ufffd'; // a lone surrogate is invalid UTF-8 in Go
  return cp < 0x10000 ? '\\u' + hex(cp, 4) : '\\U' + hex(cp, 8);
}

/** strconv.Quote (asciiOnly: QuoteToASCII). */
export function quote(s: string, asciiOnly = false): string {
  let out = '"';
  let n = 0;
  for (const ch of s) {
    // An escape is up to ten characters a rune: the length is checked as it grows, not after.
    if (++n % SCAN_STEP === 0) {
      scanned();
      checkLength(out.length);
    }
    out += escapeRune(ch, '"', asciiOnly);
  }
  return out + '"';
}

/** strconv.QuoteRune (asciiOnly: QuoteRuneToASCII). */
export function quoteRune(cp: number, asciiOnly = false): string {
  const ch = cp > 0x10ffff || (cp >= 0xd800 && cp < 0xe000) || cp < 0 ? '\ufffd' : String.fromCodePoint(cp);
  return "'" + escapeRune(ch, "'", asciiOnly) + "'";
}

/** strconv.CanBackquote. */
export function canBackquote(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09) || c === 0x60 || c === 0x7f || c === 0xfeff) return false;
  }
  return true;
}

/** Number of runes (code points) in s, which is how fmt counts widths. */
export function runeCount(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdbff) n++;
  }
  return n;
}
