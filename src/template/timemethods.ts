/** The time.Time methods a template may call on values from now, toDate and dateModify. */
import { fn, type GoFunc } from './funcs.js';
import { fields, formatTime, longMonths, timeString } from './timefmt.js';
import { GoTime, Int64 } from './values.js';

const floorDiv = (a: number, b: number): number => Math.floor(a / b);

const methods: Record<string, GoFunc> = {
  Format: fn('string', (t: GoTime, layout: string) => formatTime(t, layout)),
  String: fn('', (t: GoTime) => timeString(t)),
  Unix: fn('', (t: GoTime) => new Int64(BigInt(floorDiv(t.ms, 1000)))),
  UnixMilli: fn('', (t: GoTime) => new Int64(BigInt(t.ms))),
  Year: fn('', (t: GoTime) => BigInt(fields(t).y)),
  Month: fn('', (t: GoTime) => longMonths[fields(t).m - 1]),
  Day: fn('', (t: GoTime) => BigInt(fields(t).d)),
  Hour: fn('', (t: GoTime) => BigInt(fields(t).hh)),
  Minute: fn('', (t: GoTime) => BigInt(fields(t).mm)),
  Second: fn('', (t: GoTime) => BigInt(fields(t).ss)),
  YearDay: fn('', (t: GoTime) => BigInt(fields(t).yd)),
  UTC: fn('', (t: GoTime) => new GoTime(t.ms, t.nanos, 'UTC', 0, 'UTC')),
};

/** A method of time.Time bound to its receiver, or undefined if templates cannot call it. */
export function timeMethod(name: string): ((recv: GoTime) => GoFunc) | undefined {
  const m = methods[name];
  if (m === undefined) return undefined;
  return (recv) => ({ params: m.params, fn: (...a: never[]) => (m.fn as (...x: unknown[]) => unknown)(recv, ...a) });
}
