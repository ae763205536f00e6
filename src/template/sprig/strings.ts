/** Sprig's string functions, as ntfy's util/sprig/strings.go and functions.go define them. */
import { fail, fn, type GoFunc } from '../funcs.js';
import { sprintf } from '../printf.js';
import { quote as goQuote } from '../quote.js';
import { goDecode } from '../bytestring.js';
import { goTrimSpace } from '../space.js';
import { KEY_UNITS, byteLen, compareStrings, typedArray, typedMap } from '../values.js';
import { MAX_LIST, ValueTooLarge, checkLength, joinBounded } from '../bounds.js';
import { SCAN_STEP, scanned, spend } from '../budget.js';
import { parseInt10, strslice, strval } from './convert.js';
import { LOOP_LIMIT, STRING_LIMIT } from './limits.js';

/**
 * Go's unicode simple case mapping: a rune maps to one rune or stays (no "ß" -> "SS"), and
 * without JS's context-sensitive final sigma. The whole-string mapping is right when no rune grew.
 */
function mapRunes(s: string, f: (c: string) => string): string {
  const whole = f(s);
  if (whole.length === s.length && !s.includes('Σ')) return whole;
  return Array.from(s, (c, i) => {
    if (i % SCAN_STEP === SCAN_STEP - 1) scanned();
    const m = Array.from(f(c));
    if (m.length === 1) return m[0] ?? c;
    // "İ" lowers to "i" plus a combining dot in JS; Go's simple mapping is just "i".
    return m.slice(1).every((x) => /\p{M}/u.test(x)) ? (m[0] ?? c) : c;
  }).join('');
}
export const upper = (s: string): string => mapRunes(s, (c) => c.toUpperCase());
export const lower = (s: string): string => mapRunes(s, (c) => c.toLowerCase());

/** Titlecase differs from uppercase only for the Latin digraphs. */
const digraphTitle: Record<string, string> = { Ǆ: 'ǅ', ǅ: 'ǅ', ǆ: 'ǅ', Ǉ: 'ǈ', ǈ: 'ǈ', ǉ: 'ǈ', Ǌ: 'ǋ', ǋ: 'ǋ', ǌ: 'ǋ', Ǳ: 'ǲ', ǲ: 'ǲ', ǳ: 'ǲ' };
const isLetter = (c: string | undefined): boolean => c !== undefined && /[\p{L}\p{M}]/u.test(c);

/**
 * x/text cases.Title(language.English): the first letter of each word titlecased, the rest
 * lowercased with Greek final sigma. Digits and "_" neither start nor end a word; one of ' ’ . :
 * between two letters stays inside it (so "o'neil" -> "O'neil", "3rd" -> "3Rd", "a..b" -> "A..B").
 */
function title(s: string): string {
  const chars = Array.from(s);
  const lowered = Array.from(s.toLowerCase());
  const low = lowered.length === chars.length ? (i: number): string => lowered[i] ?? '' : (i: number): string => lower(chars[i] ?? '');
  let out = '';
  let inWord = false;
  chars.forEach((c, i) => {
    if (i % SCAN_STEP === SCAN_STEP - 1) scanned();
    if (isLetter(c)) {
      out += inWord ? low(i) : (digraphTitle[c] ?? upper(c));
      inWord = true;
      return;
    }
    out += c;
    const mid = "'’.:·".includes(c) && isLetter(chars[i - 1]) && isLetter(chars[i + 1]);
    if (!(mid || c === '_' || /\p{N}/u.test(c))) inWord = false;
  });
  return out;
}

/** A byte-offset slice of s, as Go's s[lo:hi]; panics like Go when out of range. */
function byteSlice(s: string, lo: number, hi: number): string {
  const len = byteLen(s);
  if (hi > len) fail(`runtime error: slice bounds out of range [:${hi}] with length ${len}`);
  if (lo > hi) fail(`runtime error: slice bounds out of range [${lo}:${hi}]`);
  return goDecode(Buffer.from(s, 'utf8').subarray(lo, hi));
}

function trunc(c: bigint, s: string): string {
  const len = byteLen(s);
  const n = Number(c);
  if (n < 0 && len + n > 0) return byteSlice(s, len + n, len);
  if (n >= 0 && len > n) return byteSlice(s, 0, n);
  return s;
}

function substr(start: bigint, end: bigint, s: string): string {
  const len = byteLen(s);
  const a = Number(start);
  const b = Number(end);
  if (a < 0) {
    if (b < 0) fail(`runtime error: slice bounds out of range [:${b}]`);
    return byteSlice(s, 0, b);
  }
  if (b < 0 || b > len) {
    if (a > len) fail(`runtime error: slice bounds out of range [${a}:${len}]`);
    return byteSlice(s, a, len);
  }
  return byteSlice(s, a, b);
}

function repeat(count: bigint, s: string): string {
  if (count > LOOP_LIMIT) fail(`repeat count ${count} exceeds limit of ${LOOP_LIMIT}`);
  if (count * BigInt(byteLen(s)) >= STRING_LIMIT) fail(`repeat count ${count} with string length ${byteLen(s)} exceeds limit of ${STRING_LIMIT}`);
  if (count < 0n) fail('strings: negative Repeat count');
  return s.repeat(Number(count));
}

/** The character (one code point, or a lone surrogate) that ends at s[end - 1]. */
function charBefore(s: string, end: number): string {
  const low = s.charCodeAt(end - 1);
  const high = s.charCodeAt(end - 2);
  return low >= 0xdc00 && low < 0xe000 && high >= 0xd800 && high < 0xdc00 ? s.slice(end - 2, end) : s.slice(end - 1, end);
}

/** strings.Trim with a cutset; looks only at the characters it trims, not the whole string. */
function trimCutset(s: string, cutset: string): string {
  const set = new Set(Array.from(cutset));
  let a = 0;
  let b = s.length;
  for (let ch = String.fromCodePoint(s.codePointAt(a) ?? 0); a < b && set.has(ch); ch = String.fromCodePoint(s.codePointAt(a) ?? 0)) a += ch.length;
  for (let ch = charBefore(s, b); b > a && set.has(ch); ch = charBefore(s, b)) b -= ch.length;
  return s.slice(a, b);
}

/** strings.SplitN: n < 0 all parts, n == 0 none; an empty separator splits into runes. */
function splitN(s: string, sep: string, n: number): string[] {
  if (n === 0) return [];
  let parts = sep === '' ? Array.from(s) : s.split(sep);
  // split and splitn make a map of the parts, which the executor's list bound does not see.
  if (parts.length > MAX_LIST) throw new ValueTooLarge('list');
  if (n > 0 && parts.length > n) parts = [...parts.slice(0, n - 1), parts.slice(n - 1).join(sep)];
  return parts;
}

function indexed(parts: string[]): Record<string, unknown> {
  spend(parts.length * KEY_UNITS);
  return typedMap(Object.fromEntries(parts.map((p, i) => ['_' + i, p])), 'string');
}

function atoi(s: string): bigint {
  const v = parseInt10(s);
  return v ?? 0n;
}

const indent = (n: bigint, s: string): string => {
  if (n < 0n) fail('strings: negative Repeat count');
  const lines = s.split('\n');
  checkLength(Number(n) * lines.length + s.length);
  const pad = ' '.repeat(Number(n));
  return pad + lines.join('\n' + pad);
};

export const strings: Record<string, GoFunc> = {
  trunc: fn('int string', trunc),
  trim: fn('string', goTrimSpace),
  upper: fn('string', upper),
  lower: fn('string', lower),
  title: fn('string', title),
  substr: fn('int int string', substr),
  repeat: fn('int string', repeat),
  trimAll: fn('string string', (a: string, b: string) => trimCutset(b, a)),
  trimSuffix: fn('string string', (a: string, b: string) => (a !== '' && b.endsWith(a) ? b.slice(0, b.length - a.length) : b)),
  trimPrefix: fn('string string', (a: string, b: string) => (b.startsWith(a) ? b.slice(a.length) : b)),
  contains: fn('string string', (sub: string, s: string) => s.includes(sub)),
  hasPrefix: fn('string string', (sub: string, s: string) => s.startsWith(sub)),
  hasSuffix: fn('string string', (sub: string, s: string) => s.endsWith(sub)),
  quote: fn('...any', (...a: unknown[]) => joinBounded(a.filter((v) => v !== null).map((v) => goQuote(strval(v))), ' ')),
  squote: fn('...any', (...a: unknown[]) => joinBounded(a.filter((v) => v !== null).map((v) => sprintf("'%v'", [v])), ' ')),
  cat: fn('...any', (...a: unknown[]) => joinBounded(a.filter((v) => v !== null).map((v) => sprintf('%v', [v])), ' ')),
  indent: fn('int string', indent),
  nindent: fn('int string', (n: bigint, s: string) => '\n' + indent(n, s)),
  replace: fn('string string string', (o: string, n: string, s: string) => (o !== '' ? joinBounded(s.split(o), n) : joinBounded(['', ...Array.from(s), ''], n))),
  plural: fn('string string int', (one: string, many: string, n: bigint) => (n === 1n ? one : many)),
  toString: fn('any', strval),
  atoi: fn('string', atoi),
  split: fn('string string', (sep: string, s: string) => indexed(splitN(s, sep, -1))),
  splitList: fn('string string', (sep: string, s: string) => typedArray(splitN(s, sep, -1), 'string')),
  splitn: fn('string int string', (sep: string, n: bigint, s: string) => indexed(splitN(s, sep, Number(n)))),
  toStrings: fn('any', (v: unknown) => typedArray(strslice(v), 'string')),
  join: fn('string any', (sep: string, v: unknown) => joinBounded(strslice(v), sep)),
  sortAlpha: fn('any', (v: unknown) => typedArray(Array.isArray(v) ? strslice(v).sort(compareStrings) : [strval(v)], 'string')),
};
