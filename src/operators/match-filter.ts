import { filter, type MonoTypeOperatorFunction } from 'rxjs';
import type { Outbound } from '../model/outbound.js';

/** A subscription's filters (ntfy's `id`, `message`, `title`, `priority`, `tags` parameters). */
export interface MessageFilter {
  id?: string;
  message?: string;
  title?: string;
  /** Any of these priorities passes (logical OR). */
  priorities?: readonly number[];
  /** All of these tags must be present (logical AND). */
  tags?: readonly string[];
}

export function isEmptyFilter(f: MessageFilter): boolean {
  return !f.id && !f.message && !f.title && !f.priorities?.length && !f.tags?.length;
}

/** Whether `event` passes `f`. Only message events are filtered; control events always pass. */
export function passes(f: MessageFilter, event: Outbound): boolean {
  const m = event.head;
  if (m.event !== 'message') return true;
  if (f.id && m.id !== f.id) return false;
  if (f.message && m.message !== f.message) return false;
  if (f.title && m.title !== f.title) return false;
  // ntfy treats "no priority" as the default priority 3 when filtering.
  if (f.priorities?.length && !f.priorities.includes(m.priority ?? 3)) return false;
  if (f.tags?.length && !f.tags.every((tag) => m.tags?.includes(tag))) return false;
  return true;
}

export function matchFilter(f: MessageFilter): MonoTypeOperatorFunction<Outbound> {
  return isEmptyFilter(f) ? (source) => source : filter((event) => passes(f, event));
}
