/** Go literal syntax inside actions: strconv.Unquote for strings and chars, and number constants. */
import type { NumberArg } from './ast.js';

const simple: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\' };

/** strconv.Unquote of a "..." or `...` token, or a '.' char token; throws a message on bad syntax. */
export function unquote(text: string): string {
  const q = text[0];
  if (q === '`') return text.slice(1, -1).replace(/\r/g, '');
  let out = '';
  const body = text.slice(1, -1);
  for (let i = 0; i < body.length; i++) {
    const c = body[i] ?? '';
    if (c !== '\\') {
      if (c === q) throw new Error('invalid syntax');
      out += c;
      continue;
    }
    const e = body[++i] ?? '';
    if (simple[e] !== undefined) out += simple[e];
    else if (e === q) out += e;
    else if (e === 'x' || e === 'u' || e === 'U') {
      const n = e === 'x' ? 2 : e === 'u' ? 4 : 8;
      const hex = body.slice(i + 1, i + 1 + n);
      if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== n) throw new Error('invalid syntax');
      const cp = parseInt(hex, 16);
      if (cp > 0x10ffff || (e !== 'x' && cp >= 0xd800 && cp < 0xe000)) throw new Error('invalid syntax');
      out += String.fromCodePoint(cp);
      i += n;
    } else if (/[0-7]/.test(e)) {
      const oct = body.slice(i, i + 3);
      if (!/^[0-7]{3}$/.test(oct) || parseInt(oct, 8) > 255) throw new Error('invalid syntax');
      out += String.fromCharCode(parseInt(oct, 8));
      i += 2;
    } else throw new Error('invalid syntax');
  }
  if (q === "'" && Array.from(out).length !== 1) throw new Error(`malformed character constant: ${text}`);
  return out;
}

const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;

/** strconv.ParseInt(text, 0, 64): sign, 0x/0o/0b/0 prefixes, underscores after a prefix. */
function parseInt0(text: string): bigint | undefined {
  const m = /^([+-]?)(0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|0[0-7_]*|[1-9][0-9_]*)$/.exec(text);
  if (!m) return undefined;
  let digits = m[2] ?? '';
  if (/__|_$/.test(digits)) return undefined;
  digits = digits.replace(/_/g, '');
  let v: bigint;
  if (/^0[oO]/.test(digits)) v = BigInt('0o' + digits.slice(2));
  else if (/^0[0-7]+$/.test(digits)) v = BigInt('0o' + digits.slice(1));
  else v = BigInt(digits);
  if (m[1] === '-') v = -v;
  return v < INT64_MIN || v > INT64_MAX ? undefined : v;
}

/** A hex float such as 0x1p-2; NaN if the text is not one. */
function hexFloat(text: string): number {
  const m = /^([+-]?)0[xX]([0-9a-fA-F]*)\.?([0-9a-fA-F]*)[pP]([+-]?\d+)$/.exec(text);
  if (m === null || (m[2] === '' && m[3] === '')) return NaN;
  const frac = m[3] ?? '';
  const mant = parseInt((m[2] ?? '') + frac || '0', 16) / 16 ** frac.length;
  return (m[1] === '-' ? -1 : 1) * mant * 2 ** Number(m[4]);
}

/** Go's parse.newNumber for a number or char token; throws a message on bad syntax. */
export function parseNumber(pos: number, text: string, isChar: boolean): NumberArg {
  const n: NumberArg = { k: 'number', pos, text, isInt: false, isFloat: false, int: 0n, float: 0, asFloat: false };
  if (isChar) {
    const cp = unquote(text).codePointAt(0) ?? 0;
    return { ...n, isInt: true, isFloat: true, int: BigInt(cp), float: cp };
  }
  if (text.endsWith('i')) throw new Error(`complex constants are not supported: ${JSON.stringify(text)}`);
  const i = parseInt0(text);
  if (i !== undefined) return { ...n, isInt: true, isFloat: true, int: i, float: Number(i) };
  const clean = text.replace(/_/g, '');
  if (/^\+?[0-9]+$/.test(clean) && BigInt(clean) < 1n << 64n) {
    // Fits uint64 but not int: a float operand, and "overflows int" where an int is needed.
    return { ...n, isFloat: true, float: Number(BigInt(clean)) };
  }
  if (/^[+-]?[0-9]+$/.test(clean)) throw new Error(`integer overflow: ${JSON.stringify(text)}`);
  const f = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(clean) ? Number(clean) : hexFloat(clean);
  if (!Number.isFinite(f)) throw new Error(`illegal number syntax: ${JSON.stringify(text)}`);
  const asInt = Number.isInteger(f) && Math.abs(f) < 2 ** 63;
  return { ...n, isFloat: true, float: f, isInt: asInt, int: asInt ? BigInt(f) : 0n, asFloat: /[.eEpP]/.test(text) };
}
