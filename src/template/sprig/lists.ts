/** Sprig's list functions, as ntfy's util/sprig/list.go defines them. */
import { MAX_LIST, ValueTooLarge } from '../bounds.js';
import { copied, spend } from '../budget.js';
import { fail, fn, type GoFunc } from '../funcs.js';
import { ELEM, Int64, goKind, typedArray, type GoArray } from '../values.js';
import { deepEqual } from './reflect.js';
import { empty, toInt } from './convert.js';

/** The list argument as elements, or Go's error for a non-list ("cannot VERB on type KIND"). */
function elems(list: unknown, what: string): unknown[] {
  if (list === null || list === undefined) fail('runtime error: invalid memory address or nil pointer dereference');
  if (!Array.isArray(list)) return fail(`${what} ${goKind(list)}`);
  return list;
}

function chunk(size: bigint, list: unknown): unknown[] {
  const l = elems(list, 'cannot chunk type');
  const n = Number(size);
  if (l.length === 0) return typedArray([], '[]interface {}');
  if (n <= 0) fail('runtime error: makeslice: len out of range');
  copied(l.length);
  const out: unknown[][] = [];
  for (let i = 0; i < l.length; i += n) out.push(l.slice(i, i + n));
  return typedArray(out, '[]interface {}');
}

function sliceList(list: unknown, ...idx: unknown[]): unknown {
  const l = elems(list, 'list should be type of slice or array but');
  if (l.length === 0) return null;
  const start = idx.length > 0 ? toInt(idx[0]) : 0;
  const end = idx.length >= 2 ? toInt(idx[1]) : l.length;
  if (start < 0 || end > l.length || start > end) fail(`runtime error: slice bounds out of range [${start}:${end}] with capacity ${l.length}`);
  const out = l.slice(start, end) as GoArray;
  const elem = (list as GoArray)[ELEM];
  if (elem !== undefined) out[ELEM] = elem;
  return out;
}

// The must variants return Go errors where the plain ones panic; templates see both as "error calling".
const first = fn('any', (list: unknown) => elems(list, 'cannot find first on type')[0] ?? null);
const last = fn('any', (list: unknown) => {
  const l = elems(list, 'cannot find last on type');
  return l.length === 0 ? null : l[l.length - 1];
});
const rest = fn('any', (list: unknown) => elems(list, 'cannot find rest on type').slice(1));
const initial = fn('any', (list: unknown) => elems(list, 'cannot find initial on type').slice(0, -1));
const push = fn('any any', (list: unknown, v: unknown) => [...elems(list, 'cannot push on type'), v]);
const prepend = fn('any any', (list: unknown, v: unknown) => [v, ...elems(list, 'cannot prepend on type')]);
const reverse = fn('any', (list: unknown) => [...elems(list, 'cannot find reverse on type')].reverse());
const compact = fn('any', (list: unknown) => {
  const l = elems(list, 'cannot compact on type');
  copied(l.length);
  return l.filter((v) => !empty(v));
});
/** A key equal exactly when reflect.DeepEqual is, for values that are not lists, maps or times. */
function scalarKey(v: unknown): string | undefined {
  if (v === null || v === undefined) return 'nil';
  if (v instanceof Int64) return 'I' + v.v;
  return typeof v === 'object' ? undefined : typeof v + ':' + String(v);
}

// Quadratic in the number of distinct lists/maps: deepEqual charges each comparison.
const uniq = fn('any', (list: unknown) => {
  const out: unknown[] = [];
  const seen = new Set<string>();
  const composite: unknown[] = [];
  const l = elems(list, 'cannot find uniq on type');
  spend(l.length);
  for (const v of l) {
    const key = scalarKey(v);
    if (key !== undefined) {
      if (!seen.has(key)) out.push(v);
      seen.add(key);
    } else if (!composite.some((o) => deepEqual(o, v))) {
      composite.push(v);
      out.push(v);
    }
  }
  return out;
});
const without = fn('any ...any', (list: unknown, ...omit: unknown[]) =>
  elems(list, 'cannot find without on type').filter((v) => !omit.some((o) => deepEqual(o, v))),
);
const has = fn('any any', (needle: unknown, hay: unknown) => {
  if (hay === null || hay === undefined) return false;
  return elems(hay, 'cannot find has on type').some((v) => deepEqual(needle, v));
});
const slice = fn('any ...any', sliceList);
const chunkF = fn('int any', chunk);

export const lists: Record<string, GoFunc> = {
  list: fn('...any', (...v: unknown[]) => v),
  tuple: fn('...any', (...v: unknown[]) => v),
  append: push,
  push,
  mustAppend: push,
  mustPush: push,
  prepend,
  mustPrepend: prepend,
  first,
  mustFirst: first,
  rest,
  mustRest: rest,
  last,
  mustLast: last,
  initial,
  mustInitial: initial,
  reverse,
  mustReverse: reverse,
  uniq,
  mustUniq: uniq,
  without,
  mustWithout: without,
  has,
  mustHas: has,
  compact,
  mustCompact: compact,
  slice,
  mustSlice: slice,
  chunk: chunkF,
  mustChunk: chunkF,
  concat: fn('...any', (...lists: unknown[]) => {
    const out: unknown[] = [];
    for (const l of lists) {
      if (!Array.isArray(l)) return fail(l === null || l === undefined ? 'runtime error: invalid memory address or nil pointer dereference' : `cannot concat type ${goKind(l)} as list`);
      // Checked before copying: many arguments naming one big list would build it many times over.
      if (out.length + l.length > MAX_LIST) throw new ValueTooLarge('list');
      copied(l.length);
      for (const e of l as unknown[]) out.push(e);
    }
    return out;
  }),
};
