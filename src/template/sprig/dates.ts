/** Sprig's date functions, as ntfy's util/sprig/date.go defines them; Go's Local is UTC here. */
import { fail, fn, type GoFunc } from '../funcs.js';
import { formatTime } from '../timefmt.js';
import { parseTime } from '../timeparse.js';
import { inZone, utc } from '../timezone.js';
import { GoTime, Int64 } from '../values.js';
import { durationString, parseDuration, roundDuration } from './duration.js';
import { parseInt10 } from './convert.js';

const now = (): GoTime => utc(Date.now());

/** Unix seconds for Go int and int64; other values (JSON's float64 included) mean "now", as in Sprig. */
function toTime(d: unknown): GoTime {
  if (d instanceof GoTime) return d;
  if (typeof d === 'bigint') return utc(Number(d) * 1000);
  if (d instanceof Int64) return utc(Number(d.v) * 1000);
  return now();
}

const dateInZone = (layout: string, d: unknown, zone: string): string => {
  const t = toTime(d);
  return formatTime(inZone(t.ms, t.nanos, zone), layout);
};

const nanosOf = (t: GoTime): bigint => BigInt(t.ms) * 1_000_000n + BigInt(t.nanos);

function addDuration(t: GoTime, d: bigint): GoTime {
  const ns = nanosOf(t) + d;
  const ms = ns / 1_000_000n - (ns % 1_000_000n < 0n ? 1n : 0n);
  const shifted = inZone(Number(ms), Number(ns - ms * 1_000_000n), t.zoneName);
  return t.zoneName === '' ? new GoTime(shifted.ms, shifted.nanos, t.zone, t.offsetSec, '') : shifted;
}

function mustDateModify(s: string, t: GoTime): GoTime {
  return addDuration(t, parseDuration(s));
}

function ago(d: unknown): string {
  const t = toTime(d);
  const since = BigInt(Date.now()) * 1_000_000n - nanosOf(t);
  return durationString(roundDuration(since, 1_000_000_000n));
}

function duration(sec: unknown): string {
  let n = 0n;
  if (typeof sec === 'string') n = parseInt10(sec) ?? 0n;
  else if (sec instanceof Int64) n = sec.v;
  return durationString(BigInt.asIntN(64, n * 1_000_000_000n));
}

const YEAR = 365n * 24n * 3600n * 1_000_000_000n;
const steps: [bigint, string][] = [
  [YEAR, 'y'],
  [30n * 24n * 3600n * 1_000_000_000n, 'mo'],
  [24n * 3600n * 1_000_000_000n, 'd'],
  [3600n * 1_000_000_000n, 'h'],
  [60n * 1_000_000_000n, 'm'],
  [1_000_000_000n, 's'],
];

function durationRound(v: unknown): string {
  let d = 0n;
  if (typeof v === 'string') {
    try {
      d = parseDuration(v);
    } catch {
      d = 0n;
    }
  } else if (v instanceof Int64) d = v.v;
  else if (v instanceof GoTime) d = BigInt(Date.now()) * 1_000_000n - nanosOf(v);
  const u = d < 0n ? -d : d;
  for (const [size, unit] of steps) if (u > size) return `${u / size}${unit}`;
  return '0s';
}

function mustToDate(layout: string, s: string): GoTime {
  return parseTime(layout, s);
}

/** Sprig's dateModify keeps the time when the duration does not parse. */
const dateModify = fn('string time', (s: string, t: GoTime) => {
  try {
    return mustDateModify(s, t);
  } catch {
    return t;
  }
});

const zeroTime = (): GoTime => parseTime('2006', '0001');

export const dates: Record<string, GoFunc> = {
  now: fn('', now),
  date: fn('string any', (f: string, d: unknown) => dateInZone(f, d, 'Local')),
  dateInZone: fn('string any string', dateInZone),
  date_in_zone: fn('string any string', dateInZone),
  htmlDate: fn('any', (d: unknown) => dateInZone('2006-01-02', d, 'Local')),
  htmlDateInZone: fn('any string', (d: unknown, z: string) => dateInZone('2006-01-02', d, z)),
  dateModify,
  date_modify: dateModify,
  mustDateModify: fn('string time', mustDateModify),
  must_date_modify: fn('string time', mustDateModify),
  ago: fn('any', ago),
  duration: fn('any', duration),
  durationRound: fn('any', durationRound),
  toDate: fn('string string', (f: string, s: string) => {
    try {
      return mustToDate(f, s);
    } catch {
      return zeroTime();
    }
  }),
  mustToDate: fn('string string', (f: string, s: string) => {
    try {
      return mustToDate(f, s);
    } catch (e) {
      return fail((e as Error).message);
    }
  }),
  unixEpoch: fn('time', (t: GoTime) => String(Math.floor(t.ms / 1000))),
};
