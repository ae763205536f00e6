/** Sprig's loose conversions (strval, toInt64, toFloat64, strslice, empty), shared by its functions. */
import { formatV } from '../printf.js';
import { timeString } from '../timefmt.js';
import { copied } from '../budget.js';
import { GoTime, Int64, hasKeys, isMap, wrap64 } from '../values.js';

/** Sprig's strval: strings as they are, Stringers via String(), everything else via %v. */
export const strval = (v: unknown): string => (typeof v === 'string' ? v : v instanceof GoTime ? timeString(v) : formatV(v));

const MIN64 = -(1n << 63n);

/** Go's int64(f) conversion: truncation; out of range (and NaN) gives MinInt64 on amd64. */
function floatToInt64(f: number): bigint {
  if (!Number.isFinite(f) || f >= 2 ** 63 || f < -(2 ** 63)) return MIN64;
  return BigInt(Math.trunc(f));
}

/** strconv.ParseInt(s, 10, 64), or undefined. */
export function parseInt10(s: string): bigint | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined;
  const v = BigInt(s);
  return v === wrap64(v) ? v : undefined;
}

/** strconv.ParseFloat(s, 64) for decimal and special forms, or undefined. */
function parseFloat64(s: string): number | undefined {
  if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) {
    const f = Number(s);
    return Number.isFinite(f) ? f : undefined;
  }
  if (/^[+-]?(inf|infinity)$/i.test(s)) return s.startsWith('-') ? -Infinity : Infinity;
  return /^[+-]?nan$/i.test(s) ? NaN : undefined;
}

export function toInt64(v: unknown): bigint {
  if (typeof v === 'string') return parseInt10(v) ?? 0n;
  if (typeof v === 'bigint') return v;
  if (v instanceof Int64) return v.v;
  if (typeof v === 'number') return floatToInt64(v);
  if (typeof v === 'boolean') return v ? 1n : 0n;
  return 0n;
}

export function toFloat64(v: unknown): number {
  if (typeof v === 'string') return parseFloat64(v) ?? 0;
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof Int64) return Number(v.v);
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  return 0;
}

/** Go's int(toInt64(v)). */
export const toInt = (v: unknown): number => Number(toInt64(v));

/** Sprig's strslice: a list's non-nil elements as strings; a scalar as a one-element list. */
export function strslice(v: unknown): string[] {
  if (Array.isArray(v)) {
    copied(v.length);
    return v.filter((e) => e !== null && e !== undefined).map(strval);
  }
  if (v === null || v === undefined) return [];
  return [strval(v)];
}

/** Sprig's empty: the zero value of its type. */
export function empty(v: unknown): boolean {
  if (v === undefined || v === null) return true;
  switch (typeof v) {
    case 'string':
      return v.length === 0;
    case 'number':
      return v === 0;
    case 'bigint':
      return v === 0n;
    case 'boolean':
      return !v;
  }
  if (v instanceof Int64) return v.v === 0n;
  if (v instanceof GoTime) return false;
  if (Array.isArray(v)) return v.length === 0;
  return isMap(v) && !hasKeys(v);
}
