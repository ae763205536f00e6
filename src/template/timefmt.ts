/** Go's time.Time layout formatting ("2006-01-02 15:04:05") and Time.String(), over GoTime. */
import { GoTime } from './values.js';

export const longMonths = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
export const longDays = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** Civil date of a day count since 1970-01-01 (Howard Hinnant's algorithm; valid for any year, unlike Date.UTC's 0..99 quirk). */
export function civil(days: number): { y: number; m: number; d: number } {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return { y: yoe + era * 400 + (m <= 2 ? 1 : 0), m, d };
}

/** Days since 1970-01-01 of a civil date; month and day may overflow, as Go's time.Date normalises them. */
export function daysFromCivil(y: number, m: number, d: number): number {
  y += Math.floor((m - 1) / 12);
  m = ((((m - 1) % 12) + 12) % 12) + 1;
  if (m <= 2) y--;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5);
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468 + d - 1;
}

interface Fields {
  y: number;
  m: number;
  d: number;
  hh: number;
  mm: number;
  ss: number;
  wd: number;
  yd: number;
  ns: number;
}

export function fields(t: GoTime): Fields {
  const local = t.ms + t.offsetSec * 1000;
  const days = Math.floor(local / 86400000);
  const msOfDay = local - days * 86400000;
  const { y, m, d } = civil(days);
  return {
    y,
    m,
    d,
    hh: Math.floor(msOfDay / 3600000),
    mm: Math.floor(msOfDay / 60000) % 60,
    ss: Math.floor(msOfDay / 1000) % 60,
    wd: (((days + 4) % 7) + 7) % 7,
    yd: days - daysFromCivil(y, 1, 1) + 1,
    ns: (msOfDay % 1000) * 1e6 + t.nanos,
  };
}

const p2 = (n: number): string => (n < 10 ? '0' : '') + n;

/** The layout's chunks, matched longest first as Go's nextStdChunk does. */
const chunk =
  /January|Jan|Monday|Mon|MST|2006|__2|_2006|_2|002|01|02|03|04|05|06|15|1|2|3|4|5|PM|pm|Z07:00:00|Z070000|Z07:00|Z0700|Z07|-07:00:00|-070000|-07:00|-0700|-07|[.,](?:0+|9+)(?![0-9])/g;

function zoneOffset(off: number, colon: boolean, secs: boolean, short: boolean): string {
  const sign = off < 0 ? '-' : '+';
  const a = Math.abs(off);
  let s = sign + p2(Math.floor(a / 3600));
  if (short) return s;
  s += (colon ? ':' : '') + p2(Math.floor(a / 60) % 60);
  if (secs) s += (colon ? ':' : '') + p2(a % 60);
  return s;
}

function fraction(ns: number, tok: string): string {
  const digits = String(ns).padStart(9, '0').slice(0, tok.length - 1);
  if (tok[1] === '0') return tok[0] + digits;
  const trimmed = digits.replace(/0+$/, '');
  return trimmed === '' ? '' : tok[0] + trimmed;
}

/** time.Time.Format(layout). */
export function formatTime(t: GoTime, layout: string): string {
  const f = fields(t);
  return layout.replace(chunk, (tok) => {
    switch (tok) {
      case 'January': return longMonths[f.m - 1] ?? '';
      case 'Jan': return (longMonths[f.m - 1] ?? '').slice(0, 3);
      case 'Monday': return longDays[f.wd] ?? '';
      case 'Mon': return (longDays[f.wd] ?? '').slice(0, 3);
      case 'MST': return t.zone !== '' ? t.zone : zoneOffset(t.offsetSec, false, false, false);
      case '2006': return String(f.y).padStart(4, '0');
      case '_2006': return '_' + String(f.y).padStart(4, '0');
      case '06': return p2(f.y % 100);
      case '01': return p2(f.m);
      case '1': return String(f.m);
      case '02': return p2(f.d);
      case '2': return String(f.d);
      case '_2': return (f.d < 10 ? ' ' : '') + f.d;
      case '002': return String(f.yd).padStart(3, '0');
      case '__2': return String(f.yd).padStart(3, ' ');
      case '15': return p2(f.hh);
      case '03': return p2(f.hh % 12 === 0 ? 12 : f.hh % 12);
      case '3': return String(f.hh % 12 === 0 ? 12 : f.hh % 12);
      case '04': return p2(f.mm);
      case '4': return String(f.mm);
      case '05': return p2(f.ss);
      case '5': return String(f.ss);
      case 'PM': return f.hh >= 12 ? 'PM' : 'AM';
      case 'pm': return f.hh >= 12 ? 'pm' : 'am';
    }
    if (tok[0] === 'Z' || tok[0] === '-') {
      if (tok[0] === 'Z' && t.offsetSec === 0) return 'Z';
      return zoneOffset(t.offsetSec, tok.includes(':'), tok.length >= 7 && tok !== '-07:00' && tok !== 'Z07:00', tok.length <= 3);
    }
    return fraction(f.ns, tok);
  });
}

/** time.Time.String(), without the monotonic clock reading. */
export const timeString = (t: GoTime): string => formatTime(t, '2006-01-02 15:04:05.999999999 -0700 MST');
