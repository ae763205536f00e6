/** Sprig's defaults and JSON functions, as ntfy's util/sprig/defaults.go defines them. */
import { fail, fn, type GoFunc } from '../funcs.js';
import { empty } from './convert.js';
import { marshal } from './json.js';

/** JSON.parse where Go's json.Unmarshal into any would succeed. */
function parseJSON(s: string): unknown {
  try {
    return JSON.parse(s) as unknown;
  } catch (e) {
    return fail(s.trim() === '' ? 'unexpected end of JSON input' : (e as Error).message);
  }
}

const orNull = <T>(f: () => T): T | null => {
  try {
    return f();
  } catch {
    return null;
  }
};

export const defaults: Record<string, GoFunc> = {
  default: fn('any ...any', (d: unknown, ...given: unknown[]) => (given.length === 0 || empty(given[0]) ? d : given[0])),
  empty: fn('any', empty),
  coalesce: fn('...any', (...v: unknown[]) => v.find((x) => !empty(x)) ?? null),
  all: fn('...any', (...v: unknown[]) => v.every((x) => !empty(x))),
  any: fn('...any', (...v: unknown[]) => v.some((x) => !empty(x))),
  fromJSON: fn('string', (s: string) => orNull(() => parseJSON(s))),
  mustFromJSON: fn('string', parseJSON),
  toJSON: fn('any', (v: unknown) => orNull(() => marshal(v, true)) ?? ''),
  mustToJSON: fn('any', (v: unknown) => marshal(v, true)),
  toPrettyJSON: fn('any', (v: unknown) => orNull(() => marshal(v, true, '  ')) ?? ''),
  mustToPrettyJSON: fn('any', (v: unknown) => marshal(v, true, '  ')),
  toRawJSON: fn('any', (v: unknown) => marshal(v, false)),
  mustToRawJSON: fn('any', (v: unknown) => marshal(v, false)),
  ternary: fn('any any bool', (t: unknown, f: unknown, c: boolean) => (c ? t : f)),
};
