/** Sprig's defaults and JSON functions, as ntfy's util/sprig/defaults.go defines them. */
import { RenderLimit } from '../bounds.js';
import { spend } from '../budget.js';
import { fail, fn, type GoFunc } from '../funcs.js';
import { empty } from './convert.js';
import { marshal } from './json.js';

/**
 * json.Unmarshal into any: a syntax error gives nil; a number beyond float64 becomes nil in
 * place and makes the whole call an error, which fromJSON ignores and mustFromJSON reports.
 */
function unmarshal(s: string): { value: unknown; err?: string } {
  spend(Math.ceil(s.length / 4)); // JSON.parse builds a value from every few characters
  let err: string | undefined;
  try {
    const value = JSON.parse(s, (_k, x: unknown) => {
      if (typeof x !== 'number' || Number.isFinite(x)) return x;
      err ??= 'json: cannot unmarshal number into Go value of type float64';
      return null;
    }) as unknown;
    return err === undefined ? { value } : { value, err };
  } catch (e) {
    return { value: null, err: s.trim() === '' ? 'unexpected end of JSON input' : (e as Error).message };
  }
}

/** Sprig's non-must JSON functions drop encoding errors; size bounds still apply. */
const orNull = <T>(f: () => T): T | null => {
  try {
    return f();
  } catch (e) {
    if (e instanceof RenderLimit) throw e;
    return null;
  }
};

export const defaults: Record<string, GoFunc> = {
  default: fn('any ...any', (d: unknown, ...given: unknown[]) => (given.length === 0 || empty(given[0]) ? d : given[0])),
  empty: fn('any', empty),
  coalesce: fn('...any', (...v: unknown[]) => v.find((x) => !empty(x)) ?? null),
  all: fn('...any', (...v: unknown[]) => v.every((x) => !empty(x))),
  any: fn('...any', (...v: unknown[]) => v.some((x) => !empty(x))),
  fromJSON: fn('string', (s: string) => unmarshal(s).value),
  mustFromJSON: fn('string', (s: string) => {
    const { value, err } = unmarshal(s);
    return err === undefined ? value : fail(err);
  }),
  toJSON: fn('any', (v: unknown) => orNull(() => marshal(v, true)) ?? ''),
  mustToJSON: fn('any', (v: unknown) => marshal(v, true)),
  toPrettyJSON: fn('any', (v: unknown) => orNull(() => marshal(v, true, '  ')) ?? ''),
  mustToPrettyJSON: fn('any', (v: unknown) => marshal(v, true, '  ')),
  toRawJSON: fn('any', (v: unknown) => marshal(v, false)),
  mustToRawJSON: fn('any', (v: unknown) => marshal(v, false)),
  ternary: fn('any any bool', (t: unknown, f: unknown, c: boolean) => (c ? t : f)),
};
