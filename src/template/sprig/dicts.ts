/** Sprig's dict functions, as ntfy's util/sprig/dict.go defines them. Go's map order is random; ours is sorted. */
import { fail, fn, type GoFunc } from '../funcs.js';
import { elemOf, goType, isMap, setKey, sortedKeys, typedArray, type GoMap } from '../values.js';
import { strval } from './convert.js';

type Dict = GoMap | null;

const nilMap = (): never => fail('assignment to entry in nil map');

/** A type assertion v.(map[string]interface {}), panicking like Go. */
function asDict(v: unknown): GoMap {
  if (isMap(v) && elemOf(v) === undefined) return v;
  return fail(`interface conversion: interface {} is ${v === null || v === undefined ? 'nil' : goType(v)}, not map[string]interface {}`);
}

function dig(...ps: unknown[]): unknown {
  if (ps.length < 3) fail('dig needs at least three arguments');
  let dict = asDict(ps[ps.length - 1]);
  const def = ps[ps.length - 2];
  const keys = ps.slice(0, -2).map((k) => (typeof k === 'string' ? k : fail(`interface conversion: interface {} is ${goType(k)}, not string`)));
  for (let i = 0; ; i++) {
    const k = keys[i] ?? '';
    if (!Object.hasOwn(dict, k)) return def;
    if (i === keys.length - 1) return dict[k];
    dict = asDict(dict[k]);
  }
}

export const dicts: Record<string, GoFunc> = {
  dict: fn('...any', (...v: unknown[]) => {
    const d: GoMap = {};
    for (let i = 0; i < v.length; i += 2) setKey(d, strval(v[i]), i + 1 < v.length ? v[i + 1] : '');
    return d;
  }),
  get: fn('map string', (d: Dict, k: string) => (d !== null && Object.hasOwn(d, k) ? d[k] : '')),
  set: fn('map string any', (d: Dict, k: string, v: unknown) => {
    if (d === null) return nilMap();
    setKey(d, k, v);
    return d;
  }),
  unset: fn('map string', (d: Dict, k: string) => {
    if (d !== null) delete d[k];
    return d;
  }),
  hasKey: fn('map string', (d: Dict, k: string) => d !== null && Object.hasOwn(d, k)),
  pluck: fn('string ...map', (k: string, ...ds: Dict[]) => ds.filter((d) => d !== null && Object.hasOwn(d, k)).map((d) => (d as GoMap)[k])),
  keys: fn('...map', (...ds: Dict[]) => typedArray(ds.flatMap((d) => (d === null ? [] : sortedKeys(d))), 'string')),
  pick: fn('map ...string', (d: Dict, ...keys: string[]) => {
    const out: GoMap = {};
    for (const k of keys) if (d !== null && Object.hasOwn(d, k)) setKey(out, k, d[k]);
    return out;
  }),
  omit: fn('map ...string', (d: Dict, ...keys: string[]) => {
    const out: GoMap = {};
    const drop = new Set(keys);
    for (const k of d === null ? [] : sortedKeys(d)) if (!drop.has(k)) setKey(out, k, (d as GoMap)[k]);
    return out;
  }),
  values: fn('map', (d: Dict) => (d === null ? [] : sortedKeys(d).map((k) => d[k]))),
  dig: fn('...any', dig),
};
