import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { WorkBudget, WorkExhausted, charging } from '../../src/template/budget.js';
import { formatV } from '../../src/template/printf.js';
import { strslice } from '../../src/template/sprig/convert.js';
import { marshal } from '../../src/template/sprig/json.js';
import { deepEqual } from '../../src/template/sprig/reflect.js';

/**
 * Random nested values (lists, maps, strings, numbers, with shared references, as a template
 * builds them with `list $x $x` or `dict "a" $m "b" $m`): deepEqual agrees with a plain
 * structural comparison, and no walk does more work than the budget it is given.
 */

type Value = unknown;

/** A pool of values, each composite made of earlier ones, so references are shared and paths multiply. */
const pool: fc.Arbitrary<Value[]> = fc
  .tuple(
    fc.array(fc.oneof(fc.string({ maxLength: 4 }), fc.integer({ min: -3, max: 3 }), fc.constantFrom(null, true, 1.5)), { minLength: 1, maxLength: 4 }),
    fc.array(fc.tuple(fc.boolean(), fc.array(fc.tuple(fc.nat(), fc.constantFrom('a', 'b', 'c')), { maxLength: 3 })), { maxLength: 25 }),
  )
  .map(([leaves, composites]) => {
    const values: Value[] = [...leaves];
    for (const [isList, picks] of composites) {
      const parts = picks.map(([i, key]) => [key, values[values.length - 1 - (i % Math.min(values.length, 3))]] as const);
      values.push(isList ? parts.map(([, v]) => v) : Object.fromEntries(parts));
    }
    return values;
  });

/** Structural equality by walking every path: the reference, for values whose paths are few. */
function plainEqual(a: Value, b: Value): boolean {
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return Object.is(a, b) || a === b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as Value[]).length && a.every((v, i) => plainEqual(v, (b as Value[])[i]));
  const ka = Object.keys(a);
  const mb = b as Record<string, Value>;
  return ka.length === Object.keys(mb).length && ka.every((k) => Object.hasOwn(mb, k) && plainEqual((a as Record<string, Value>)[k], mb[k]));
}

/** Paths through a value: what a walk without memory visits. */
function paths(v: Value, cap: number): number {
  if (typeof v !== 'object' || v === null) return 1;
  let n = 1;
  for (const c of Object.values(v)) {
    n += paths(c, cap);
    if (n > cap) return n;
  }
  return n;
}

/** Distinct lists and maps in a value, and the references they hold. */
function shape(v: Value, seen = new Set<object>()): { nodes: number; edges: number } {
  if (typeof v !== 'object' || v === null || seen.has(v)) return { nodes: 0, edges: 0 };
  seen.add(v);
  const children = Object.values(v);
  let nodes = 1;
  let edges = children.length;
  for (const c of children) {
    const s = shape(c, seen);
    nodes += s.nodes;
    edges += s.edges;
  }
  return { nodes, edges };
}

/** Runs f against a budget of `units`: the units left when it ended, or -1 when the budget stopped it. */
function within(units: number, f: () => unknown): number {
  let left = units;
  const budget = new WorkBudget(Date.now() + 60_000, units);
  const spend = budget.spend.bind(budget);
  budget.spend = (n: number): void => {
    left -= n;
    spend(n);
  };
  try {
    charging(budget, f);
    return left;
  } catch (e) {
    if (e instanceof WorkExhausted) return -1;
    throw e;
  }
}

describe('template budget — properties', () => {
  it('budget — deepEqual agrees with a structural comparison on values with shared references', () => {
    fc.assert(
      fc.property(pool, fc.nat(), fc.nat(), (values, i, j) => {
        const a = values[i % values.length];
        const b = values[j % values.length];
        fc.pre(paths(a, 20_000) < 20_000 && paths(b, 20_000) < 20_000);
        assert.equal(deepEqual(a, b), plainEqual(a, b));
        assert.equal(deepEqual(a, structuredClone(a)), true);
      }),
      { numRuns: 500 },
    );
  });

  it('budget — deepEqual visits each pair of distinct nodes once, however many paths lead there', () => {
    fc.assert(
      fc.property(pool, fc.nat(), (values, i) => {
        const a = values[values.length - 1];
        const b = structuredClone(values[i % values.length]);
        const { nodes, edges } = shape(a);
        const bound = 2 + 2 * (edges + nodes) * (shape(b).nodes + 1);
        assert.ok(within(bound, () => deepEqual(a, b)) >= 0, `more than ${bound} units`);
      }),
      { numRuns: 300 },
    );
  });

  it('budget — every walk stops within its budget, even over values with 2^25 paths', () => {
    const walks: ((v: Value) => unknown)[] = [formatV, (v) => marshal(v, true), (v) => marshal(v, false, '  '), strslice, (v) => deepEqual(v, structuredClone(v))];
    fc.assert(
      fc.property(pool, fc.integer({ min: 10, max: 5000 }), (values, units) => {
        const v = values[values.length - 1];
        for (const walk of walks) {
          const started = performance.now();
          within(units, () => walk(v));
          // Finished within the budget or stopped by it: either way soon, whatever the paths.
          assert.ok(performance.now() - started < 1000, `${performance.now() - started} ms`);
        }
      }),
      { numRuns: 200 },
    );
  });
});
