/** Sprig's reflection functions and reflect.DeepEqual over the value model. */
import { fn, type GoFunc } from '../funcs.js';
import { GoTime, Int64, goKind, goType, isMap } from '../values.js';

/** reflect.DeepEqual: same Go type and deeply equal contents (so float64 1 is not int 1). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === undefined) a = null;
  if (b === undefined) b = null;
  if (a === null || b === null) return a === b;
  if (goType(a) !== goType(b)) return false;
  if (a instanceof Int64) return a.v === (b as Int64).v;
  if (a instanceof GoTime) {
    const t = b as GoTime;
    return a.ms === t.ms && a.nanos === t.nanos && a.zoneName === t.zoneName;
  }
  if (Array.isArray(a)) {
    const l = b as unknown[];
    return a.length === l.length && a.every((v, i) => deepEqual(v, l[i]));
  }
  if (isMap(a) && isMap(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]));
  }
  return a === b;
}

export const reflect: Record<string, GoFunc> = {
  typeOf: fn('any', goType),
  typeIs: fn('string any', (t: string, v: unknown) => t === goType(v)),
  typeIsLike: fn('string any', (t: string, v: unknown) => t === goType(v) || '*' + t === goType(v)),
  kindOf: fn('any', goKind),
  kindIs: fn('string any', (k: string, v: unknown) => k === goKind(v)),
  deepEqual: fn('any any', deepEqual),
};
