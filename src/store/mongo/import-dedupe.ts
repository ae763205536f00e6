import type { LogEvent } from './message-log.js';

/** The events without a repeated id (an import's source may hold one twice), the first kept. */
export function firstOfEachId(events: LogEvent[]): LogEvent[] {
  const seen = new Set<string>();
  return events.filter((e) => !seen.has(e.id) && seen.add(e.id));
}
