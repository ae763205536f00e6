/** Go's time.Parse for layouts like "2006-01-02T15:04:05Z07:00", in UTC where Go would use Local. */
import { quote } from './quote.js';
import { daysFromCivil, longDays, longMonths } from './timefmt.js';
import { GoTime } from './values.js';

const chunk =
  /January|Jan|Monday|Mon|MST|2006|__2|_2006|_2|002|01|02|03|04|05|06|15|1|2|3|4|5|PM|pm|Z07:00:00|Z070000|Z07:00|Z0700|Z07|-07:00:00|-070000|-07:00|-0700|-07|[.,](?:0+|9+)(?![0-9])/g;

class ParseError extends Error {}

/** time.Parse(layout, value); throws Error with Go's message. */
export function parseTime(layout: string, value: string): GoTime {
  const full = value;
  const bad = (rest: string, tok: string): never => {
    throw new ParseError(`parsing time ${quote(full)} as ${quote(layout)}: cannot parse ${quote(rest)} as ${quote(tok)}`);
  };
  const range = (what: string): never => {
    throw new ParseError(`parsing time ${quote(full)}: ${what} out of range`);
  };
  let year = 0; // Go: elements missing from the layout are zero, so "15:04" parses into year 0
  let month = 1;
  let day = 1;
  let yday = -1;
  let hour = 0;
  let min = 0;
  let sec = 0;
  let nsec = 0;
  let pm: boolean | undefined;
  let offset: number | undefined;
  let zoneAbbr: string | undefined;
  const num = (min: number, max: number, tok: string, pad = false): number => {
    if (pad && value[0] === ' ') value = value.slice(1);
    const m = new RegExp(`^\\d{${min},${max}}`).exec(value);
    if (m === null) return bad(value, tok);
    value = value.slice(m[0].length);
    return Number(m[0]);
  };
  const name = (list: string[], short: boolean, tok: string): number => {
    for (let i = 0; i < list.length; i++) {
      const n = short ? (list[i] ?? '').slice(0, 3) : (list[i] ?? '');
      if (value.slice(0, n.length).toLowerCase() === n.toLowerCase()) {
        value = value.slice(n.length);
        return i;
      }
    }
    return bad(value, tok);
  };
  let last = 0;
  for (const m of layout.matchAll(chunk)) {
    const tok = m[0];
    const lit = layout.slice(last, m.index);
    last = m.index + tok.length;
    skipLiteral(lit, () => value, (v) => (value = v), () => bad(value, lit));
    switch (tok) {
      case 'January': month = name(longMonths, false, tok) + 1; break;
      case 'Jan': month = name(longMonths, true, tok) + 1; break;
      case 'Monday': name(longDays, false, tok); break;
      case 'Mon': name(longDays, true, tok); break;
      case '2006': year = num(4, 4, tok); break;
      case '06': year = num(2, 2, tok); year += year >= 69 ? 1900 : 2000; break;
      case '01': month = num(2, 2, tok); break;
      case '1': month = num(1, 2, tok); break;
      case '02': day = num(2, 2, tok); break;
      case '2': day = num(1, 2, tok); break;
      case '_2': day = num(1, 2, tok, true); break;
      case '002': yday = num(3, 3, tok); break;
      case '15': hour = num(1, 2, tok); break;
      case '03': hour = num(2, 2, tok); break;
      case '3': hour = num(1, 2, tok); break;
      case '04': min = num(2, 2, tok); break;
      case '4': min = num(1, 2, tok); break;
      case '05':
      case '5':
        sec = num(tok === '05' ? 2 : 1, 2, tok);
        if (/^[.,]\d/.test(value) && !/^[.,](0|9)/.test(layout.slice(last))) {
          const d = /^[.,](\d+)/.exec(value)?.[1] ?? '';
          nsec = Number(d.slice(0, 9).padEnd(9, '0'));
          value = value.slice(d.length + 1);
        }
        break;
      case 'PM':
      case 'pm': {
        const ap = value.slice(0, 2);
        if (tok === 'PM' ? ap !== 'AM' && ap !== 'PM' : ap !== 'am' && ap !== 'pm') bad(value, tok);
        pm = ap === 'PM' || ap === 'pm';
        value = value.slice(2);
        break;
      }
      case 'MST': {
        const z = /^(UTC|GMT|[A-Z]{3,5})/.exec(value)?.[0];
        if (z === undefined) bad(value, tok);
        else {
          zoneAbbr = z;
          value = value.slice(z.length);
        }
        break;
      }
      default:
        if (tok[0] === 'Z' || tok[0] === '-') {
          if (tok[0] === 'Z' && value[0] === 'Z') {
            value = value.slice(1);
            offset = 0;
            break;
          }
          const colon = tok.includes(':');
          const re = tok.endsWith('07') ? /^[+-]\d\d/ : colon ? (tok.length > 6 ? /^[+-]\d\d:\d\d:\d\d/ : /^[+-]\d\d:\d\d/) : tok.length > 5 ? /^[+-]\d{6}/ : /^[+-]\d{4}/;
          const z = re.exec(value)?.[0];
          if (z === undefined) return bad(value, tok);
          const digits = z.slice(1).replace(/:/g, '');
          const secs = Number(digits.slice(0, 2)) * 3600 + Number(digits.slice(2, 4) || '0') * 60 + Number(digits.slice(4, 6) || '0');
          offset = z[0] === '-' ? -secs : secs;
          value = value.slice(z.length);
        } else {
          const d = new RegExp(`^[.,]\\d{${tok[1] === '0' ? tok.length - 1 : 0},${tok.length - 1}}`).exec(value)?.[0];
          if (d === undefined) return bad(value, tok);
          if (d.length > 1) nsec = Number(d.slice(1).padEnd(9, '0'));
          value = value.slice(d.length);
        }
    }
  }
  skipLiteral(layout.slice(last), () => value, (v) => (value = v), () => bad(value, layout.slice(last)));
  if (value !== '') throw new ParseError(`parsing time ${quote(full)}: extra text: ${quote(value)}`);
  if (pm !== undefined) {
    if (hour > 12) range('hour');
    if (pm && hour < 12) hour += 12;
    else if (!pm && hour === 12) hour = 0;
  }
  if (yday >= 0) {
    const d = daysFromCivil(year, 1, yday) - daysFromCivil(year, 1, 1);
    if (yday < 1 || d >= daysFromCivil(year + 1, 1, 1) - daysFromCivil(year, 1, 1)) range('day-of-year');
    const first = new Date(0);
    first.setUTCFullYear(year, 0, yday);
    month = first.getUTCMonth() + 1;
    day = first.getUTCDate();
  }
  if (month < 1 || month > 12) range('month');
  if (day < 1 || day > daysIn(year, month)) range('day');
  if (hour > 23) range('hour');
  if (min > 59) range('minute');
  if (sec > 59) range('second');
  const local = (daysFromCivil(year, month, day) * 86400 + hour * 3600 + min * 60 + sec) * 1000 + Math.floor(nsec / 1e6);
  const off = offset ?? 0;
  const abbr = offset === undefined ? (zoneAbbr ?? 'UTC') : off === 0 ? 'UTC' : '';
  return new GoTime(local - off * 1000, nsec % 1e6, abbr, off, abbr === 'UTC' ? 'UTC' : '');
}

const daysIn = (y: number, m: number): number => daysFromCivil(y, m + 1, 1) - daysFromCivil(y, m, 1);

/** Go's skip: layout text must match, a space matching any run of spaces. */
function skipLiteral(lit: string, get: () => string, set: (v: string) => void, fail: () => never): void {
  let v = get();
  for (let i = 0; i < lit.length; i++) {
    if (lit[i] === ' ') {
      if (v !== '' && v[0] !== ' ') fail();
      while (lit[i + 1] === ' ') i++;
      v = v.replace(/^ +/, '');
      continue;
    }
    if (v[0] !== lit[i]) fail();
    v = v.slice(1);
  }
  set(v);
}
