/**
 * The value model: how Go values that a template can see are held in JS.
 *
 *   Go                      JS
 *   string                  string
 *   float64 (JSON numbers)  number
 *   int (literals, len...)  bigint
 *   int64 (Sprig math)      Int64 (wraps a bigint; Go refuses int64 where int is wanted)
 *   bool                    boolean
 *   nil                     null
 *   no value (missing key)  undefined (Go's invalid reflect.Value)
 *   []any / []T             array; T (if not interface {}) in arr[ELEM]
 *   map[string]any / ...T   plain object; T in obj[ELEM]
 *   time.Time               GoTime
 */

import { spend } from './budget.js';

export const ELEM = Symbol('goElemType');

/** Setting a key in a big map costs 1-2 µs (measured), about eight node visits. */
export const KEY_UNITS = 8;

export type GoArray = unknown[] & { [ELEM]?: string };
export type GoMap = { [key: string]: unknown; [ELEM]?: string };

export class Int64 {
  constructor(readonly v: bigint) {}
}

/** A time.Time: an instant plus the zone it is shown in. */
export class GoTime {
  constructor(
    readonly ms: number, // Unix epoch milliseconds
    readonly nanos: number, // sub-millisecond nanoseconds, 0..999999
    readonly zone: string, // abbreviation Go prints for %Z / MST
    readonly offsetSec: number,
    readonly zoneName: string, // IANA name, for Format's "MST" fallback and In()
  ) {}
}

export const typedArray = <T>(arr: T[], elem: string): GoArray => {
  (arr as GoArray)[ELEM] = elem;
  return arr;
};

export const typedMap = (obj: Record<string, unknown>, elem: string): GoMap => {
  const m = obj as GoMap;
  Object.defineProperty(m, ELEM, { value: elem, enumerable: false });
  return m;
};

/** Store m[k] as an own property, so a key like "__proto__" is data as in a Go map, not a prototype. */
export function setKey(m: GoMap, k: string, v: unknown): void {
  spend(KEY_UNITS);
  Object.defineProperty(m, k, { value: v, writable: true, enumerable: true, configurable: true });
}

/** The element type tag of a typed slice or map (undefined for interface {}). */
export const elemOf = (v: GoArray | GoMap): string | undefined => v[ELEM];

export const isMap = (v: unknown): v is GoMap =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof GoTime) && !(v instanceof Int64);

/** Go's %T / typeOf name. */
export function goType(v: unknown): string {
  switch (typeof v) {
    case 'string':
      return 'string';
    case 'number':
      return 'float64';
    case 'bigint':
      return 'int';
    case 'boolean':
      return 'bool';
    case 'undefined':
      return '<nil>';
  }
  if (v === null) return '<nil>';
  if (v instanceof Int64) return 'int64';
  if (v instanceof GoTime) return 'time.Time';
  if (Array.isArray(v)) return '[]' + ((v as GoArray)[ELEM] ?? 'interface {}');
  return 'map[string]' + ((v as GoMap)[ELEM] ?? 'interface {}');
}

/** Go's reflect Kind name, as Sprig's kindOf prints it. */
export function goKind(v: unknown): string {
  if (v === null || v === undefined) return 'invalid';
  if (v instanceof GoTime) return 'struct';
  if (Array.isArray(v)) return 'slice';
  if (typeof v === 'object') return v instanceof Int64 ? 'int64' : 'map';
  return goType(v);
}

/** Integer value of a Go int or int64, else undefined. */
export const intOf = (v: unknown): bigint | undefined =>
  typeof v === 'bigint' ? v : v instanceof Int64 ? v.v : undefined;

/** Go's text/template truth (isTrue); Struct values (time.Time) are always true. */
export function truth(v: unknown): boolean {
  if (v === undefined || v === null) return false;
  switch (typeof v) {
    case 'string':
      return v.length > 0;
    case 'number':
      return v !== 0;
    case 'bigint':
      return v !== 0n;
    case 'boolean':
      return v;
  }
  if (v instanceof Int64) return v.v !== 0n;
  if (v instanceof GoTime) return true;
  if (Array.isArray(v)) return v.length > 0;
  return hasKeys(v as GoMap);
}

/** A map's len > 0, without listing a big map's keys. */
export function hasKeys(m: GoMap): boolean {
  for (const k in m) if (Object.hasOwn(m, k)) return true;
  return false;
}

/** Wrap to Go's 64-bit signed integer range. */
export const wrap64 = (n: bigint): bigint => BigInt.asIntN(64, n);

/** Byte length of a string in UTF-8, which is what Go's len and slicing count. */
export const byteLen = (s: string): number => Buffer.byteLength(s, 'utf8');

/** Sorted map keys, as Go's fmt and range order them; the sort is charged to the render. */
export function sortedKeys(m: GoMap): string[] {
  const keys = Object.keys(m);
  // n log n comparisons in JS, each a few characters looked at.
  spend(Math.ceil((keys.length * Math.log2(keys.length + 1)) / 4));
  return keys.sort(compareStrings);
}

/** Byte-wise string order (Go compares UTF-8 bytes; JS < compares UTF-16 units). */
export function compareStrings(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Below the surrogates UTF-16 order is code point order, which is UTF-8 byte order.
    if (x < 0xd800 && y < 0xd800) return x - y;
    return Buffer.compare(Buffer.from(a.slice(i), 'utf8'), Buffer.from(b.slice(i), 'utf8'));
  }
  return a.length - b.length;
}
