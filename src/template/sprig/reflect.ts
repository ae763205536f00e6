/** Sprig's reflection functions and reflect.DeepEqual over the value model. */
import { copied, spend } from '../budget.js';
import { fn, type GoFunc } from '../funcs.js';
import { GoTime, Int64, goKind, goType, isMap } from '../values.js';

/**
 * reflect.DeepEqual: same Go type and deeply equal contents (so float64 1 is not int 1). As
 * Go's, it takes a list or map compared with itself as equal at once, and a pair of lists or
 * maps met again as equal (if they differ, the first comparison of the pair says so), so a
 * value built from shared references is compared once per pair of nodes, not once per path;
 * each pair visited is charged to the render (budget.ts).
 */
export function deepEqual(a: unknown, b: unknown): boolean {
  return equal(a, b, new Map());
}

type Seen = Map<object, Set<object>>;

/** Whether the pair was met before; records it if not. */
function met(seen: Seen, a: object, b: object): boolean {
  const partners = seen.get(a);
  if (partners === undefined) seen.set(a, new Set([b]));
  else if (partners.has(b)) return true;
  else partners.add(b);
  return false;
}

function equal(a: unknown, b: unknown, seen: Seen): boolean {
  spend(1);
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
    if (a.length !== l.length) return false;
    if (a === l || met(seen, a, l)) return true;
    return a.every((v, i) => equal(v, l[i], seen));
  }
  if (isMap(a) && isMap(b)) {
    if (a === b) return true;
    const ka = Object.keys(a);
    copied(ka.length);
    if (ka.length !== Object.keys(b).length) return false;
    if (met(seen, a, b)) return true;
    return ka.every((k) => Object.hasOwn(b, k) && equal(a[k], b[k], seen));
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
