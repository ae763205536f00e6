/** Go's text/template builtin functions (text/template/funcs.go). */
import { goDecode } from './bytestring.js';
import { checkLength } from './bounds.js';
import { SCAN_STEP, copied, scanned } from './budget.js';
import { percentEncoder } from './percent.js';
import { fail, fn, type GoFunc } from './funcs.js';
import { formatV, sprint, sprintf, sprintln } from './printf.js';
import { isPrint } from './quote.js';
import { GoTime, Int64, byteLen, compareStrings, elemOf, goType, intOf, isMap, truth, typedArray } from './values.js';

type Kind = 'invalid' | 'bool' | 'int' | 'float' | 'string' | 'other';

function basicKind(v: unknown): Kind {
  if (v === undefined || v === null) return 'invalid';
  switch (typeof v) {
    case 'boolean':
      return 'bool';
    case 'bigint':
      return 'int';
    case 'number':
      return 'float';
    case 'string':
      return 'string';
  }
  return v instanceof Int64 ? 'int' : 'other';
}

function eq(a: unknown, ...rest: unknown[]): boolean {
  if (rest.length === 0) fail('missing argument for comparison');
  const k1 = basicKind(a);
  for (const b of rest) {
    const k2 = basicKind(b);
    if (k1 !== k2) {
      if (k1 !== 'invalid' && k2 !== 'invalid') fail(`incompatible types for comparison: ${goType(a)} and ${goType(b)}`);
      continue;
    }
    switch (k1) {
      case 'int':
        if (intOf(a) === intOf(b)) return true;
        break;
      case 'invalid':
        return true;
      case 'other':
        if (a instanceof GoTime && b instanceof GoTime) {
          if (a.ms === b.ms && a.nanos === b.nanos && a.zoneName === b.zoneName) return true;
          break;
        }
        return fail(`non-comparable type ${formatV(b)}: ${goType(b)}`);
      default:
        if (a === b) return true;
    }
  }
  return false;
}

function lt(a: unknown, b: unknown): boolean {
  const k1 = basicKind(a);
  const k2 = basicKind(b);
  if (k1 === 'invalid' || k1 === 'other' || k2 === 'invalid' || k2 === 'other') fail('invalid type for comparison');
  if (k1 !== k2) fail(`incompatible types for comparison: ${goType(a)} and ${goType(b)}`);
  switch (k1) {
    case 'bool':
      return fail('invalid type for comparison');
    case 'int':
      return (intOf(a) ?? 0n) < (intOf(b) ?? 0n);
    case 'string':
      return compareStrings(a as string, b as string) < 0;
  }
  return (a as number) < (b as number);
}

function length(v: unknown): bigint {
  if (v === undefined || v === null) fail('len of nil pointer');
  if (typeof v === 'string') return BigInt(byteLen(v));
  if (Array.isArray(v)) return BigInt(v.length);
  if (isMap(v)) {
    const n = Object.keys(v).length;
    copied(n);
    return BigInt(n);
  }
  return fail(`len of type ${goType(v)}`);
}

function indexArg(i: unknown, cap: number): number {
  const n = intOf(i);
  if (n === undefined) return fail(`cannot index slice/array with type ${goType(i)}`);
  if (n < 0n || n > BigInt(cap)) fail(`index out of range: ${n}`);
  return Number(n);
}

function index(item: unknown, ...indexes: unknown[]): unknown {
  if (item === undefined) fail('index of untyped nil');
  for (const i of indexes) {
    if (item === null) fail('index of nil pointer');
    if (typeof item === 'string' || Array.isArray(item)) {
      const len = typeof item === 'string' ? byteLen(item) : item.length;
      const x = indexArg(i, len);
      if (x === len) fail(`index out of range: ${x}`);
      item = typeof item === 'string' ? BigInt(Buffer.from(item)[x] ?? 0) : item[x];
    } else if (isMap(item)) {
      if (typeof i !== 'string') {
        return fail(i === null || i === undefined ? 'value is nil; should be of type string' : `value has type ${goType(i)}; should be string`);
      }
      item = Object.hasOwn(item, i) ? item[i] : elemOf(item) === 'string' ? '' : null;
    } else fail(`can't index item of type ${goType(item)}`);
  }
  return item;
}

function slice(item: unknown, ...indexes: unknown[]): unknown {
  if (item === undefined || item === null) fail('slice of untyped nil');
  if (indexes.length > 3) fail(`too many slice indexes: ${indexes.length}`);
  let len: number;
  if (typeof item === 'string') {
    if (indexes.length === 3) fail('cannot 3-index slice a string');
    len = byteLen(item);
  } else if (Array.isArray(item)) len = item.length;
  else return fail(`can't slice item of type ${goType(item)}`);
  const idx = [0, len];
  indexes.forEach((v, i) => (idx[i] = indexArg(v, len)));
  const [lo = 0, hi = len] = idx;
  if (lo > hi) fail(`invalid slice index: ${lo} > ${hi}`);
  if (indexes.length === 3 && (idx[2] ?? 0) < hi) fail(`invalid slice index: ${hi} > ${idx[2]}`);
  if (typeof item === 'string') return goDecode(Buffer.from(item).subarray(lo, hi));
  const out = item.slice(lo, hi);
  const elem = elemOf(item);
  return elem === undefined ? out : typedArray(out, elem);
}

/** Go's evalArgs for html/js/urlquery: one string as is, else fmt.Sprint. */
const evalArgs = (args: unknown[]): string => (args.length === 1 && typeof args[0] === 'string' ? args[0] : sprint(args));

const htmlEsc: Record<string, string> = { '"': '&#34;', "'": '&#39;', '&': '&amp;', '<': '&lt;', '>': '&gt;', '\0': '\ufffd' };

function jsEscape(s: string): string {
  let out = '';
  let n = 0;
  for (const ch of s) {
    if (++n % SCAN_STEP === 0) {
      scanned();
      checkLength(out.length);
    }
    const c = ch.codePointAt(0) ?? 0;
    if (ch === '\\' || ch === "'" || ch === '"') out += '\\' + ch;
    else if (ch === '<' || ch === '>' || ch === '&' || ch === '=') out += '\\u00' + c.toString(16).toUpperCase();
    else if (c < 0x20) out += '\\u00' + c.toString(16).toUpperCase().padStart(2, '0');
    else if (c >= 0x80 && !isPrint(ch)) out += '\\u' + c.toString(16).toUpperCase().padStart(4, '0');
    else out += ch;
  }
  return out;
}

/** url.QueryEscape. */
const queryEscape = percentEncoder(/[A-Za-z0-9\-_.~]/, '+');

export const builtins: Record<string, GoFunc> = {
  and: fn('value ...value', () => undefined), // short-circuits in exec.ts
  or: fn('value ...value', () => undefined),
  not: fn('value', (v: unknown) => !truth(v)),
  len: fn('value', length),
  index: fn('value ...value', index),
  slice: fn('value ...value', slice),
  print: fn('...any', (...a: unknown[]) => sprint(a)),
  printf: fn('string ...any', (f: string, ...a: unknown[]) => sprintf(f, a)),
  println: fn('...any', (...a: unknown[]) => sprintln(a)),
  html: fn('...any', (...a: unknown[]) => evalArgs(a).replace(/["'&<>\0]/g, (c) => htmlEsc[c] ?? c)),
  js: fn('...any', (...a: unknown[]) => jsEscape(evalArgs(a))),
  urlquery: fn('...any', (...a: unknown[]) => queryEscape(evalArgs(a))),
  eq: fn('value ...value', eq),
  ne: fn('value value', (a: unknown, b: unknown) => !eq(a, b)),
  lt: fn('value value', lt),
  le: fn('value value', (a: unknown, b: unknown) => lt(a, b) || eq(a, b)),
  gt: fn('value value', (a: unknown, b: unknown) => !(lt(a, b) || eq(a, b))),
  ge: fn('value value', (a: unknown, b: unknown) => !lt(a, b)),
};
