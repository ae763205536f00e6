/** Sprig's integer and float math, as ntfy's util/sprig/numeric.go defines them. */
import { fail, fn, type GoFunc } from '../funcs.js';
import { Int64, typedArray, wrap64 } from '../values.js';
import { formatV } from '../printf.js';
import { toFloat64, toInt64 } from './convert.js';
import { LOOP_LIMIT } from './limits.js';

const i64 = (n: bigint): Int64 => new Int64(wrap64(n));

/** untilStep with ntfy's iteration limit; Go ints are 64-bit, so the bounds are bigint. */
function untilStep(start: bigint, stop: bigint, step: bigint): bigint[] {
  const v: bigint[] = [];
  if (step === 0n) return v;
  const iterations = Math.abs(Number(stop) - Number(start)) / Number(step);
  if (iterations > Number(LOOP_LIMIT)) {
    fail(`too many iterations in untilStep; max allowed is ${LOOP_LIMIT}, got ${iterations.toFixed(6)}`);
  }
  if (stop < start) {
    if (step >= 0n) return v;
    for (let i = start; i > stop; i += step) v.push(i);
    return v;
  }
  if (step <= 0n) return v;
  for (let i = start; i < stop; i += step) v.push(i);
  return v;
}

const ints = (v: bigint[]): unknown[] => typedArray(v, 'int');

function seq(...p: bigint[]): string {
  const join = (v: bigint[]): string => v.join(' ');
  switch (p.length) {
    case 1: {
      const end = p[0] ?? 0n;
      const inc = end < 1n ? -1n : 1n;
      return join(untilStep(1n, end + inc, inc));
    }
    case 2: {
      const [start = 0n, end = 0n] = p;
      const step = end < start ? -1n : 1n;
      return join(untilStep(start, end + step, step));
    }
    case 3: {
      const [start = 0n, step = 0n, end = 0n] = p;
      let inc = 1n;
      if (end < start) {
        inc = -1n;
        if (step > 0n) return '';
      }
      return join(untilStep(start, end + inc, step));
    }
  }
  return '';
}

/** Sprig's round: half away from zero by default, at a chosen decimal place. */
function round(a: unknown, places: bigint, ...opt: number[]): number {
  const roundOn = opt[0] ?? 0.5;
  const val = toFloat64(a);
  const pow = Math.pow(10, Number(places));
  const digit = pow * val;
  const frac = digit - Math.trunc(digit);
  return (frac >= roundOn ? Math.ceil(digit) : Math.floor(digit)) / pow;
}

function div(a: unknown, b: unknown): Int64 {
  const d = toInt64(b);
  if (d === 0n) fail('runtime error: integer divide by zero');
  return i64(toInt64(a) / d);
}

function mod(a: unknown, b: unknown): Int64 {
  const d = toInt64(b);
  if (d === 0n) fail('runtime error: integer divide by zero');
  return i64(toInt64(a) % d);
}

/** strconv.ParseInt(fmt.Sprint(v), 8, 64), 0 on error. */
function toDecimal(v: unknown): Int64 {
  const s = formatV(v);
  if (!/^[+-]?[0-7]+$/.test(s)) return i64(0n);
  const n = BigInt((s.startsWith('-') ? '-' : '') + '0o' + s.replace(/^[+-]/, ''));
  return i64(n === wrap64(n) ? n : 0n);
}

export const math: Record<string, GoFunc> = {
  add1: fn('any', (a: unknown) => i64(toInt64(a) + 1n)),
  add: fn('...any', (...a: unknown[]) => i64(a.reduce<bigint>((s, v) => s + toInt64(v), 0n))),
  sub: fn('any any', (a: unknown, b: unknown) => i64(toInt64(a) - toInt64(b))),
  div: fn('any any', div),
  mod: fn('any any', mod),
  mul: fn('any ...any', (a: unknown, ...r: unknown[]) => i64(r.reduce<bigint>((p, v) => wrap64(p * toInt64(v)), toInt64(a)))),
  randInt: fn('int int', (min: bigint, max: bigint) => {
    if (max - min <= 0n) fail('invalid argument to Intn');
    return min + BigInt(Math.floor(Math.random() * Number(max - min)));
  }),
  biggest: fn('any ...any', (a: unknown, ...r: unknown[]) => i64(r.reduce<bigint>((m, v) => (toInt64(v) > m ? toInt64(v) : m), toInt64(a)))),
  max: fn('any ...any', (a: unknown, ...r: unknown[]) => i64(r.reduce<bigint>((m, v) => (toInt64(v) > m ? toInt64(v) : m), toInt64(a)))),
  min: fn('any ...any', (a: unknown, ...r: unknown[]) => i64(r.reduce<bigint>((m, v) => (toInt64(v) < m ? toInt64(v) : m), toInt64(a)))),
  maxf: fn('any ...any', (a: unknown, ...r: unknown[]) => r.reduce<number>((m, v) => Math.max(m, toFloat64(v)), toFloat64(a))),
  minf: fn('any ...any', (a: unknown, ...r: unknown[]) => r.reduce<number>((m, v) => Math.min(m, toFloat64(v)), toFloat64(a))),
  ceil: fn('any', (a: unknown) => Math.ceil(toFloat64(a))),
  floor: fn('any', (a: unknown) => Math.floor(toFloat64(a))),
  round: fn('any int ...float', round),
  toDecimal: fn('any', toDecimal),
  seq: fn('...int', seq),
  until: fn('int', (n: bigint) => ints(untilStep(0n, n, n < 0n ? -1n : 1n))),
  untilStep: fn('int int int', (a: bigint, b: bigint, s: bigint) => ints(untilStep(a, b, s))),
};
