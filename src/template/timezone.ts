/** Time zones for GoTime: offsets via Intl, abbreviations as Go's tzdata. Go's "Local" is UTC here so output does not depend on the host. */
import { GoTime } from './values.js';
import { zoneAbbreviations } from './zoneabbr.js';

const formatters = new Map<string, Intl.DateTimeFormat | null>();

function formatter(zone: string): Intl.DateTimeFormat | null {
  let f = formatters.get(zone);
  if (f === undefined) {
    try {
      f = new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      });
    } catch {
      f = null;
    }
    if (formatters.size < 1000) formatters.set(zone, f);
  }
  return f;
}

/** The instant ms shown in zone (an IANA name; '', 'UTC', 'Local' and unknown names are UTC). */
export function inZone(ms: number, nanos: number, zone: string): GoTime {
  const f = zone === '' || zone === 'UTC' || zone === 'Local' ? null : formatter(zone);
  if (f === null) return new GoTime(ms, nanos, 'UTC', 0, 'UTC');
  const parts: Record<string, string> = {};
  for (const p of f.formatToParts(new Date(ms))) parts[p.type] = p.value;
  const wall = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  const offsetSec = Math.round((wall - (ms - (((ms % 1000) + 1000) % 1000))) / 1000);
  return new GoTime(ms, nanos, abbreviation(zone, offsetSec), offsetSec, zone);
}

/** Go's abbreviation: from tzdata (zoneabbr.ts) where it has a name, else numeric like "+04" or "+0530". */
function abbreviation(zone: string, offsetSec: number): string {
  const table = zoneAbbreviations[zone];
  if (table !== undefined) {
    const parts = table.split(' ');
    for (let i = 0; i < parts.length; i += 2) if (Number(parts[i]) === offsetSec) return parts[i + 1] ?? '';
  }
  const a = Math.abs(offsetSec);
  const hh = String(Math.floor(a / 3600)).padStart(2, '0');
  const mm = Math.floor(a / 60) % 60;
  return (offsetSec < 0 ? '-' : '+') + hh + (mm === 0 ? '' : String(mm).padStart(2, '0'));
}

export const utc = (ms: number, nanos = 0): GoTime => new GoTime(ms, nanos, 'UTC', 0, 'UTC');
