/** Go's ways of printing times, durations and sizes, as ntfy's CLI output shows them. */

const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const two = (n: number): string => String(n).padStart(2, '0');

/** time.UnixDate in UTC: "Mon Jan  2 15:04:05 UTC 2006". */
export function unixDate(d: Date): string {
  const day = String(d.getUTCDate()).padStart(2, ' ');
  const clock = `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
  return `${days[d.getUTCDay()]} ${months[d.getUTCMonth()]} ${day} ${clock} UTC ${d.getUTCFullYear()}`;
}

/** time.RFC822 in UTC: "02 Jan 06 15:04 UTC". */
export function rfc822(d: Date): string {
  return `${two(d.getUTCDate())} ${months[d.getUTCMonth()]} ${two(d.getUTCFullYear() % 100)} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())} UTC`;
}

/**
 * time.Duration.String() of a duration rounded to milliseconds: "12h0m0s", "1m30s",
 * "56.553s", "553ms", "0s" (as ntfy prints `--wait-cmd` run times and tier durations).
 */
export function goDuration(seconds: number): string {
  const ms = Math.round(seconds * 1000);
  if (ms > 0 && ms < 1000) return `${ms}ms`;
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = `${Math.floor((ms % 60_000) / 1000)}${ms % 1000 ? `.${String(ms % 1000).padStart(3, '0').replace(/0+$/, '')}` : ''}s`;
  if (h > 0) return `${h}h${m}m${s}`;
  if (m > 0) return `${m}m${s}`;
  return s;
}

/** ntfy's util.FormatSizeHuman: "512 bytes", "15.0 MB", "1.0 GB". */
export function humanSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  let div = 1024;
  let exp = 0;
  for (let n = Math.floor(bytes / 1024); n >= 1024; n = Math.floor(n / 1024)) {
    div *= 1024;
    exp++;
  }
  return `${(bytes / div).toFixed(1)} ${'KMGT'[exp]}B`;
}
