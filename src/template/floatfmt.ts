/**
 * Go's strconv float formatting ('e', 'f', 'g'), in JS. Shortest digits come from
 * Number#toExponential(), which like Go prints the shortest round-tripping form; fixed
 * precisions round the exact binary value half-to-even, as Go does.
 */

/** Decimal digits d (no leading/trailing zeros) with the point after dp digits: value = 0.d × 10^dp. */
interface Digits {
  d: string;
  dp: number;
}

function shortest(x: number): Digits {
  const [mant = '0', exp = '0'] = x.toExponential().split('e');
  const d = mant.replace('.', '').replace(/0+$/, '');
  return d === '' ? { d: '', dp: 0 } : { d, dp: Number(exp) + 1 };
}

/** The exact decimal expansion of a finite double. */
function exact(x: number): Digits {
  if (x === 0) return { d: '', dp: 0 };
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const e = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let exp2 = e - 1075;
  if (e === 0) exp2 = -1074;
  else mant |= 1n << 52n;
  let s: string;
  let dp: number;
  if (exp2 >= 0) {
    s = (mant << BigInt(exp2)).toString();
    dp = s.length;
  } else {
    s = (mant * 5n ** BigInt(-exp2)).toString();
    dp = s.length + exp2;
  }
  const lead = s.match(/^0*/)?.[0].length ?? 0;
  s = s.slice(lead);
  dp -= lead;
  return { d: s.replace(/0+$/, ''), dp };
}

/** Round to nd significant digits, half to even on the exact value (Go's decimal.Round). */
function round(v: Digits, nd: number): Digits {
  if (nd < 0) return { d: '', dp: v.dp };
  if (nd >= v.d.length) return v;
  const next = v.d.charCodeAt(nd) - 48;
  let up = next > 5;
  if (next === 5) up = nd + 1 < v.d.length || (nd > 0 && (v.d.charCodeAt(nd - 1) - 48) % 2 === 1);
  if (!up) return { d: v.d.slice(0, nd).replace(/0+$/, ''), dp: v.dp };
  let i = nd - 1;
  while (i >= 0 && v.d[i] === '9') i--;
  if (i < 0) return { d: '1', dp: v.dp + 1 };
  return { d: v.d.slice(0, i) + String.fromCharCode(v.d.charCodeAt(i) + 1), dp: v.dp };
}

function fmtE(v: Digits, prec: number, e: string): string {
  let s = v.d[0] ?? '0';
  if (prec > 0) s += '.' + v.d.slice(1, prec + 1).padEnd(prec, '0');
  const exp = v.d === '' ? 0 : v.dp - 1;
  const a = Math.abs(exp);
  return s + e + (exp < 0 ? '-' : '+') + (a < 10 ? '0' : '') + a;
}

function fmtF(v: Digits, prec: number): string {
  let s = v.dp > 0 ? v.d.slice(0, v.dp).padEnd(v.dp, '0') : '0';
  if (prec > 0) {
    s += '.';
    for (let i = 1; i <= prec; i++) {
      const j = v.dp + i - 1;
      s += j >= 0 && j < v.d.length ? v.d[j] : '0';
    }
  }
  return s;
}

/** strconv.FormatFloat(x, verb, prec, 64) for verb in e E f F g G; prec -1 means shortest. */
export function formatFloat(x: number, verb: string, prec: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? '+Inf' : '-Inf';
  const neg = x < 0 || Object.is(x, -0);
  const body = formatAbs(Math.abs(x), verb, prec);
  return neg ? '-' + body : body;
}

function formatAbs(x: number, verb: string, prec: number): string {
  const lower = verb.toLowerCase();
  const e = verb === 'E' || verb === 'G' ? 'E' : 'e';
  const isShortest = prec < 0;
  let v: Digits;
  if (isShortest) {
    v = shortest(x);
    prec = lower === 'e' ? Math.max(v.d.length - 1, 0) : lower === 'f' ? Math.max(v.d.length - v.dp, 0) : v.d.length;
  } else if (lower === 'e') v = round(exact(x), prec + 1);
  else if (lower === 'f') {
    const ex = exact(x);
    v = round(ex, ex.dp + prec);
  } else {
    if (prec === 0) prec = 1;
    v = round(exact(x), prec);
  }
  if (lower === 'e') return fmtE(v, prec, e);
  if (lower === 'f') return fmtF(v, prec);
  let eprec = prec;
  if (eprec > v.d.length && v.d.length >= v.dp) eprec = v.d.length;
  if (isShortest) eprec = 6;
  const exp = v.dp - 1;
  if (v.d !== '' && (exp < -4 || exp >= eprec)) return fmtE(v, Math.min(prec, v.d.length) - 1, e);
  return fmtF(v, Math.max((prec > v.dp ? v.d.length : prec) - v.dp, 0));
}
