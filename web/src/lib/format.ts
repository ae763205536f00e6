import { locale } from './i18n.js';

const byteUnits = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;

/** Sizes as the list shows them, in the language shown (1.5 MB, 1,5 Mo, 1,5 MB). */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < byteUnits.length - 1) {
    value /= 1024;
    unit++;
  }
  return new Intl.NumberFormat(locale(), { style: 'unit', unit: byteUnits[unit], unitDisplay: 'short', maximumFractionDigits: unit === 0 ? 0 : 1 }).format(value);
}

/** A date and time as the language shown writes it. */
export const formatTime = (unixSeconds: number): string => new Intl.DateTimeFormat(locale(), { dateStyle: 'medium', timeStyle: 'short' }).format(unixSeconds * 1000);

/** A time of day as the language shown writes it. */
export const formatClock = (ms: number): string => new Intl.DateTimeFormat(locale(), { timeStyle: 'medium' }).format(ms);
