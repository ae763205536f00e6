import type { LogEvent } from './message-log.js';

/** The events without a repeated id (an import's source may hold one twice), the first kept. */
export function firstOfEachId(events: LogEvent[]): LogEvent[] {
  const seen = new Set<string>();
  return events.filter((e) => !seen.has(e.id) && seen.add(e.id));
}

/** Throws DuplicateIdError when a batch holds an id twice, before anything of it is written. */
export function assertDistinctIds(events: readonly LogEvent[]): void {
  const seen = new Set<string>();
  const repeated = events.filter((e) => seen.size === seen.add(e.id).size).map((e) => e.id);
  if (repeated.length > 0) throw new DuplicateIdError(repeated);
}

class DuplicateIdError extends Error {
  constructor(ids: readonly string[]) {
    super(`message id twice in one batch: ${ids.join(', ')}`);
    this.name = 'DuplicateIdError';
  }
}
