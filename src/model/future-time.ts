import * as chrono from 'chrono-node';
import { errors } from './errors.js';
import { parseDuration } from './units.js';

/**
 * The longest delay text read, once trimmed. chrono-node's parse grows with the square of
 * some inputs' length ("jan" + 60,000 spaces + "!" took 1.9 s); at 64 characters the worst
 * shapes measured ("1-" or "jan 1 " repeated, runs of spaces, numbers or words) take
 * 0.1-0.4 ms, and the longest delays people write ("next Tuesday at 10:30am",
 * "2026-11-23T10:00:00+01:00") are under 30.
 */
export const maxDelayLength = 64;

/**
 * When a delayed message is due (ntfy's util.ParseFutureTime): a Unix timestamp not in the
 * past, a duration from now ("30m", "2 days"), or natural language through chrono-node
 * ("10am", "tomorrow, 3pm"). A time of day already past today means the same time tomorrow.
 * Text longer than maxDelayLength is too large (40006) without being parsed.
 */
export function parseFutureTime(input: string, now: Date): Date {
  const trimmed = input.trim();
  if (trimmed.length > maxDelayLength) throw errors.delayTooLarge;
  const at = parseAny(trimmed, now);
  // "99979220 d" or a 20-digit timestamp is past what a Date holds (Go's parse overflows too).
  if (!Number.isFinite(at.getTime())) throw errors.delayCannotParse;
  return at;
}

function parseAny(s: string, now: Date): Date {
  if (/^\d+$/.test(s)) {
    const at = new Date(Number(s) * 1000);
    if (at.getTime() >= Math.floor(now.getTime() / 1000) * 1000) return at;
    throw errors.delayCannotParse;
  }
  try {
    return new Date(now.getTime() + parseDuration(s));
  } catch {
    // not a duration: try natural language
  }
  const [parsed] = chrono.parse(s, now, { forwardDate: true });
  if (!parsed) throw errors.delayCannotParse;
  const at = parsed.start.date();
  if (at > now) return at;
  // A past date stays past; a time of day that is not ahead ("9am" after 9am) is
  // retried as tomorrow, as ntfy does.
  if (parsed.start.isCertain('day')) throw errors.delayCannotParse;
  const tomorrow = chrono.parseDate(`tomorrow, ${s}`, now, { forwardDate: true });
  if (tomorrow && tomorrow > now) return tomorrow;
  throw errors.delayCannotParse;
}
