import { filter, type MonoTypeOperatorFunction } from 'rxjs';
import type { Outbound } from '../model/outbound.js';

/**
 * Drops live events that the replay already emitted. `ids` holds only the replayed
 * messages that might still arrive live (committed but not yet delivered when the cache
 * was read), so the set is empty on the common path; each id is dropped once.
 */
export function skipReplayed(ids: Set<string>): MonoTypeOperatorFunction<Outbound> {
  if (ids.size === 0) return (source) => source;
  return filter((event) => !(ids.size > 0 && ids.delete(event.head.id)));
}
