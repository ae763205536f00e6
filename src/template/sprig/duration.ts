/** Go's time.Duration: String(), ParseDuration and Round, in nanoseconds as bigint. */
import { fail } from '../funcs.js';

const SEC = 1_000_000_000n;

function frac(v: bigint, unit: bigint, digits: number): string {
  const whole = v / unit;
  const f = (v % unit).toString().padStart(digits, '0').replace(/0+$/, '');
  return f === '' ? whole.toString() : `${whole}.${f}`;
}

/** time.Duration.String(), e.g. "1h2m3.5s", "1.5ms", "0s". */
export function durationString(d: bigint): string {
  if (d === 0n) return '0s';
  const sign = d < 0n ? '-' : '';
  const u = d < 0n ? -d : d;
  if (u < SEC) {
    if (u < 1000n) return `${sign}${u}ns`;
    if (u < 1_000_000n) return `${sign}${frac(u, 1000n, 3)}µs`;
    return `${sign}${frac(u, 1_000_000n, 6)}ms`;
  }
  const h = u / (3600n * SEC);
  const m = (u / (60n * SEC)) % 60n;
  const s = frac(u % (60n * SEC), SEC, 9);
  return `${sign}${h > 0n ? `${h}h` : ''}${h > 0n || m > 0n ? `${m}m` : ''}${s}s`;
}

const units: Record<string, bigint> = { ns: 1n, us: 1000n, 'µs': 1000n, 'μs': 1000n, ms: 1_000_000n, s: SEC, m: 60n * SEC, h: 3600n * SEC };

/** time.ParseDuration; throws Go's error message. */
export function parseDuration(s: string): bigint {
  const quoted = JSON.stringify(s);
  let rest = s;
  let neg = false;
  if (rest[0] === '-' || rest[0] === '+') {
    neg = rest[0] === '-';
    rest = rest.slice(1);
  }
  if (rest === '0') return 0n;
  if (rest === '') fail(`time: invalid duration ${quoted}`);
  let total = 0n;
  while (rest !== '') {
    const m = /^(\d*)(?:\.(\d*))?/.exec(rest);
    const int = m?.[1] ?? '';
    const fr = m?.[2];
    if (int === '' && (fr === undefined || fr === '')) fail(`time: invalid duration ${quoted}`);
    rest = rest.slice(m?.[0].length ?? 0);
    const u = /^[^\d.]*/.exec(rest)?.[0] ?? '';
    if (u === '') fail(`time: missing unit in duration ${quoted}`);
    const unit = units[u];
    if (unit === undefined) return fail(`time: unknown unit ${JSON.stringify(u)} in duration ${quoted}`);
    rest = rest.slice(u.length);
    let v = BigInt(int === '' ? '0' : int) * unit;
    if (fr !== undefined && fr !== '') v += (BigInt(fr) * unit) / 10n ** BigInt(fr.length);
    total += v;
    if (total > (1n << 63n) - 1n) fail(`time: invalid duration ${quoted}`);
  }
  return neg ? -total : total;
}

/** Duration.Round(m): halves away from zero. */
export function roundDuration(d: bigint, m: bigint): bigint {
  const r = d % m;
  if (d < 0n) {
    const nr = -r;
    return nr + nr < m ? d + nr : d - m + nr;
  }
  return r + r < m ? d - r : d + m - r;
}
