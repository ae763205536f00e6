/**
 * Durations and sizes as ntfy writes them in server.yml and parameters (util.ParseDuration,
 * util.ParseSize): Go durations ("1h30m", "500ms", "1.5h"), plus whole numbers with a day,
 * hour, minute or second word ("3d", "2 days", "10 mins"), and sizes like "4k" or "15M".
 */
const goUnitsMs: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, μs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const goDuration = /^([-+]?)((?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+$/;
const goPart = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/g;
const wordDuration = /^(\d+)\s*(d|days?|h|hours?|m|mins?|minutes?|s|secs?|seconds?)$/i;
const wordUnitsMs: Record<string, number> = { d: 86_400_000, h: 3_600_000, m: 60_000, s: 1000 };

/** Milliseconds; throws on anything ntfy would not accept. "0" is zero, as in Go. */
export function parseDuration(input: string): number {
  const s = input.trim();
  if (s === '0') return 0;
  const go = goDuration.exec(s);
  if (go) {
    let ms = 0;
    for (const [, value, unit] of s.matchAll(goPart)) ms += Number(value) * (goUnitsMs[unit as string] as number);
    return go[1] === '-' ? -ms : ms;
  }
  const word = wordDuration.exec(s);
  if (word) return Number(word[1]) * (wordUnitsMs[(word[2] as string)[0]?.toLowerCase() as string] as number);
  throw new Error(`invalid duration: ${JSON.stringify(input)}`);
}

const sizePattern = /^(\d+)([kmgt])?b?$/i;
const sizeUnits: Record<string, number> = { k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4 };

/** Bytes; a bare number is bytes. */
export function parseSize(input: string | number): number {
  const match = sizePattern.exec(String(input).trim());
  if (!match) throw new Error(`invalid size: ${JSON.stringify(input)}`);
  return Number(match[1]) * (match[2] ? (sizeUnits[match[2].toLowerCase()] as number) : 1);
}
