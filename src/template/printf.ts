/** Go's fmt.Sprint, Sprintln and Sprintf over the value model of values.ts. */
import { append, checkLength, joinBounded } from './bounds.js';
import { SCAN_STEP, scanned, spend, copied } from './budget.js';
import { formatFloat } from './floatfmt.js';
import { canBackquote, quote, quoteRune, runeCount } from './quote.js';
import { timeString } from './timefmt.js';
import { GoTime, Int64, goType, intOf, isMap, sortedKeys } from './values.js';

interface Flags {
  plus: boolean;
  minus: boolean;
  sharp: boolean;
  space: boolean;
  zero: boolean;
  wid: number; // -1: absent
  prec: number; // -1: absent
}

const plain: Flags = { plus: false, minus: false, sharp: false, space: false, zero: false, wid: -1, prec: -1 };

/** fmt's pad: to the width in runes, with zeros under the 0 flag (numbers clear it where Go does). */
function pad(s: string, f: Flags): string {
  if (f.wid < 0) return s;
  const n = f.wid - runeCount(s);
  if (n <= 0) return s;
  if (f.minus) return s + ' '.repeat(n);
  return (f.zero ? '0' : ' ').repeat(n) + s;
}

const badVerb = (v: unknown, verb: string): string =>
  v === null || v === undefined ? `%!${verb}(<nil>)` : `%!${verb}(${goType(v)}=${fmtValue(v, 'v', plain, 1)})`;

function fmtInteger(n: bigint, verb: string, f: Flags): string {
  const neg = n < 0n;
  const u = neg ? -n : n;
  let body: string;
  switch (verb) {
    case 'c':
      return pad(String.fromCodePoint(Number(u > 0x10ffffn ? 0xfffdn : u)), f);
    case 'q':
      return pad(quoteRune(Number(n), f.plus), f);
    case 'U': {
      const h = u.toString(16).toUpperCase().padStart(4, '0');
      return pad('U+' + h, f);
    }
  }
  const base = verb === 'b' ? 2 : verb === 'o' || verb === 'O' ? 8 : verb === 'x' || verb === 'X' ? 16 : 10;
  let prec = f.prec;
  if (prec === 0 && u === 0n) return pad('', { ...f, zero: false });
  if (prec < 0 && f.zero && f.wid >= 0 && !f.minus) prec = neg || f.plus || f.space ? f.wid - 1 : f.wid;
  body = u.toString(base);
  if (verb === 'X') body = body.toUpperCase();
  if (prec > body.length) body = '0'.repeat(prec - body.length) + body;
  if (f.sharp) {
    if (base === 2) body = '0b' + body;
    else if (base === 8 && body[0] !== '0') body = '0' + body;
    else if (base === 16) body = (verb === 'X' ? '0X' : '0x') + body;
  }
  if (verb === 'O') body = '0o' + body;
  if (neg) body = '-' + body;
  else if (f.plus) body = '+' + body;
  else if (f.space) body = ' ' + body;
  return pad(body, { ...f, zero: false });
}

function fmtFloat(x: number, verb: string, f: Flags): string {
  let num: string;
  if (verb === 'v') num = formatFloat(x, 'g', f.prec);
  else if ('gG'.includes(verb)) num = formatFloat(x, verb, f.prec);
  else if ('eEfF'.includes(verb)) num = formatFloat(x, verb === 'F' ? 'f' : verb, f.prec < 0 ? 6 : f.prec);
  else if (verb === 'x' || verb === 'X') num = hexFloat(x, verb);
  else return badVerb(x, verb);
  let sign = num[0] === '-' || num[0] === '+' ? num[0] : '+';
  if (num[0] === '-' || num[0] === '+') num = num.slice(1);
  if (f.sharp && num !== 'Inf' && num !== 'NaN') num = sharpFloat(num, verb, f.prec);
  if (f.space && sign === '+' && !f.plus) sign = ' ';
  if (num === 'Inf' || num === 'NaN') {
    const nf = { ...f, zero: false };
    if (num === 'NaN' && !f.space && !f.plus) return pad(num, nf);
    return pad(sign + num, nf);
  }
  if (f.plus || sign !== '+') {
    const s = sign + num;
    if (f.zero && !f.minus && f.wid > s.length) return sign + '0'.repeat(f.wid - s.length) + num;
    return pad(s, f);
  }
  return pad(num, f);
}

/** The # flag on floats: always a decimal point, and %g/%v keep trailing zeros (6 digits by default). */
function sharpFloat(num: string, verb: string, prec: number): string {
  let digits = 'vgGxX'.includes(verb) ? (prec < 0 ? 6 : prec) : 0;
  const e = verb === 'x' || verb === 'X' ? num.search(/[pP]/) : num.search(/[eEpP]/);
  const tail = e < 0 ? '' : num.slice(e);
  let body = e < 0 ? num : num.slice(0, e);
  let sawNonzero = false;
  for (const c of body) {
    if (c === '.') continue;
    if (c !== '0') sawNonzero = true;
    if (sawNonzero) digits--;
  }
  if (!body.includes('.')) {
    if (body === '0') digits--;
    body += '.';
  }
  return body + '0'.repeat(Math.max(digits, 0)) + tail;
}

/** %x on a float64: shortest hex mantissa, binary exponent ("0x1.cp+01"). */
function hexFloat(x: number, verb: string): string {
  if (!Number.isFinite(x)) return formatFloat(x, 'g', -1);
  const sign = x < 0 || Object.is(x, -0) ? '-' : '';
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(x));
  const bits = view.getBigUint64(0);
  let exp = Number(bits >> 52n);
  let mant = bits & ((1n << 52n) - 1n);
  if (exp === 0 && mant === 0n) return sign + (verb === 'x' ? '0x0p+00' : '0X0P+00');
  if (exp === 0) {
    exp = 1;
    while (mant < 1n << 52n) {
      mant <<= 1n;
      exp--;
    }
    mant &= (1n << 52n) - 1n;
  }
  const e = exp - 1023;
  const frac = mant.toString(16).padStart(13, '0').replace(/0+$/, '');
  const a = Math.abs(e);
  const s = `0x1${frac === '' ? '' : '.' + frac}p${e < 0 ? '-' : '+'}${a < 10 ? '0' : ''}${a}`;
  return sign + (verb === 'X' ? s.toUpperCase() : s);
}

function fmtString(s: string, verb: string, f: Flags): string {
  switch (verb) {
    case 'v':
    case 's':
      if (f.prec >= 0) s = Array.from(s).slice(0, f.prec).join('');
      return pad(s, f);
    case 'q':
      if (f.prec >= 0) s = Array.from(s).slice(0, f.prec).join('');
      return pad(f.sharp && canBackquote(s) ? '`' + s + '`' : quote(s, f.plus), f);
    case 'x':
    case 'X': {
      let bytes = Buffer.from(s, 'utf8');
      if (f.prec >= 0) bytes = bytes.subarray(0, f.prec);
      let out = '';
      // Up to five characters a byte: checked as it grows, not after.
      checkLength(bytes.length * 2);
      for (let i = 0; i < bytes.length; i++) {
        if (i % SCAN_STEP === SCAN_STEP - 1) {
          scanned();
          checkLength(out.length);
        }
        if (f.space && i > 0) out += ' ';
        if (f.sharp && (f.space || i === 0)) out += verb === 'x' ? '0x' : '0X';
        const h = (bytes[i] ?? 0).toString(16).padStart(2, '0');
        out += verb === 'X' ? h.toUpperCase() : h;
      }
      return pad(out, f);
    }
  }
  return badVerb(s, verb);
}

/**
 * fmt's printArg/printValue for one operand; depth > 0 inside slices and maps. Each value
 * visited is charged to the render (budget.ts): a list holding one list twice, nested forty
 * times, prints 2^40 values.
 */
function fmtValue(v: unknown, verb: string, f: Flags, depth: number): string {
  spend(1);
  if (v === null || v === undefined) {
    if (depth > 0 || verb === 'v' || verb === 'T') return pad('<nil>', f);
    return badVerb(v, verb);
  }
  if (verb === 'T') return pad(goType(v), f);
  switch (typeof v) {
    case 'boolean':
      return verb === 't' || verb === 'v' ? pad(String(v), f) : badVerb(v, verb);
    case 'number':
      return fmtFloat(v, verb, f);
    case 'string':
      copied(v.length);
      return fmtString(v, verb, f);
    case 'bigint':
      return 'vdboOxXcqU'.includes(verb) ? fmtInteger(v, verb === 'v' ? 'd' : verb, f) : badVerb(v, verb);
  }
  if (v instanceof Int64) return fmtValue(v.v, verb, f, depth);
  if (v instanceof GoTime) return 'vsqxX'.includes(verb) ? fmtString(timeString(v), verb, f) : badVerb(v, verb);
  if (Array.isArray(v)) {
    let out = '[';
    for (let i = 0; i < v.length; i++) out = append(out, (i > 0 ? ' ' : '') + fmtValue(v[i], verb, f, depth + 1));
    return out + ']';
  }
  if (isMap(v)) {
    let out = 'map[';
    for (const k of sortedKeys(v)) {
      out = append(out, (out.length > 4 ? ' ' : '') + fmtValue(k, verb, f, depth + 1) + ':');
      out = append(out, fmtValue(v[k], verb, f, depth + 1));
    }
    return out + ']';
  }
  return '?';
}

/** fmt.Sprint(v) of a single value, i.e. %v. */
export const formatV = (v: unknown): string => fmtValue(v, 'v', plain, 0);

/** fmt.Sprint: spaces between operands when neither side is a string. */
export function sprint(args: readonly unknown[]): string {
  let out = '';
  let prevString = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const isString = typeof a === 'string';
    if (i > 0 && !isString && !prevString) out += ' ';
    out = append(out, fmtValue(a, 'v', plain, 0));
    prevString = isString;
  }
  return out;
}

/** fmt.Sprintln: always a space between operands, and a newline at the end. */
export function sprintln(args: readonly unknown[]): string {
  let out = '';
  for (const a of args) out = append(out, (out === '' ? '' : ' ') + fmtValue(a, 'v', plain, 0));
  return out + '\n';
}

/** fmt.Sprintf, without explicit argument indexes (%[1]d). */
export function sprintf(format: string, args: readonly unknown[]): string {
  let out = '';
  let argNum = 0;
  let i = 0;
  const end = format.length;
  while (i < end) {
    const pct = format.indexOf('%', i);
    if (pct < 0) {
      out = append(out, format.slice(i));
      break;
    }
    out = append(out, format.slice(i, pct));
    i = pct + 1;
    const f: Flags = { ...plain };
    for (; i < end; i++) {
      const c = format[i];
      if (c === '#') f.sharp = true;
      else if (c === '0') f.zero = !f.minus;
      else if (c === '+') f.plus = true;
      else if (c === '-') {
        f.minus = true;
        f.zero = false;
      } else if (c === ' ') f.space = true;
      else break;
    }
    [f.wid, i, argNum, out] = readNum(format, i, args, argNum, out, 'BADWIDTH');
    if (f.wid < -1) {
      f.minus = true;
      f.zero = false;
      f.wid = -f.wid - 2;
    }
    if (format[i] === '.') {
      i++;
      const star = format[i] === '*';
      [f.prec, i, argNum, out] = readNum(format, i, args, argNum, out, 'BADPREC');
      if (f.prec === -1 && !star) f.prec = 0;
      else if (f.prec < -1) {
        f.prec = -1;
        out += '%!(BADPREC)';
      }
    }
    if (i >= end) {
      out += '%!(NOVERB)';
      break;
    }
    const verb = String.fromCodePoint(format.codePointAt(i) ?? 0);
    i += verb.length;
    if (verb === '%') {
      out += '%';
      continue;
    }
    if (argNum >= args.length) {
      out += `%!${verb}(MISSING)`;
      continue;
    }
    const arg = args[argNum++];
    if (verb === 'v' && f.plus) f.plus = false; // %+v only changes structs, which templates cannot see
    out = append(out, fmtValue(arg, verb, f, 0));
  }
  if (argNum < args.length) {
    const extra = args.slice(argNum).map((a) => (a === null || a === undefined ? '<nil>' : goType(a) + '=' + formatV(a)));
    out = append(out, '%!(EXTRA ' + joinBounded(extra, ', ') + ')');
  }
  return out;
}

/** A width or precision: digits, or '*' taking an int operand. -1 when absent; a negative '*' width is returned as -(w+2). */
function readNum(
  format: string,
  i: number,
  args: readonly unknown[],
  argNum: number,
  out: string,
  bad: string,
): [number, number, number, string] {
  if (format[i] === '*') {
    const n = intOf(args[argNum]);
    if (n === undefined || n > 1000000n || n < -1000000n) return [-1, i + 1, argNum + 1, out + `%!(${bad})`];
    const w = Number(n);
    return [w < 0 ? (bad === 'BADWIDTH' ? w - 2 : -2) : w, i + 1, argNum + 1, out];
  }
  let j = i;
  while (j < format.length && format.charCodeAt(j) >= 48 && format.charCodeAt(j) <= 57) j++;
  if (j === i) return [-1, i, argNum, out];
  const n = Number(format.slice(i, j));
  // Go's fmt refuses widths and precisions over 10^6.
  return n > 1e6 ? [-1, j, argNum, out + `%!(${bad})`] : [n, j, argNum, out];
}
