import type { Monitor, MonitorSettings, MonitorState } from '../monitors/monitor.js';

/** The owner has a monitor of that key already. */
export class MonitorExists extends Error {
  constructor() {
    super('monitor already exists');
  }
}

/** The owner has `limit` monitors already. */
export class TooManyMonitors extends Error {
  constructor(limit: number) {
    super(`a user may have ${limit} monitors`);
  }
}

/**
 * The heartbeat monitors port (ntfy's monitor.Manager): monitors by owner and key. The
 * embedded implementation is an SQLite file (monitor-file). Times are Unix seconds, given
 * by the caller. Contract:
 * - `add` stores a new `pending` monitor never seen (`lastSeenAt` 0), created `now`, and
 *   answers it; a key the owner holds throws MonitorExists, an owner holding `limit`
 *   monitors TooManyMonitors, both changing nothing (checked and written atomically).
 * - `list` answers the owner's monitors ordered by key; `get` one, or undefined.
 * - `update` changes the settings given and answers the monitor, or undefined when absent.
 * - `heartbeat` records a ping: `lastSeenAt` now, state `up`, answering the monitor and the
 *   state before, or undefined when absent.
 * - `stale(now)` answers the `up` monitors whose `lastSeenAt + period + grace < now`
 *   (pending and down ones never); `markDown` makes one `down` only if it still is stale
 *   at `now` (a ping meanwhile wins), answering whether it did.
 * - `remove` and `removeByUser` answer how many monitors went.
 * - `close` is called once; nothing is called after it.
 */
export interface MonitorStore {
  add(user: string, key: string, settings: MonitorSettings, limit: number, now: number): Promise<Monitor>;
  list(user: string): Promise<Monitor[]>;
  get(user: string, key: string): Promise<Monitor | undefined>;
  update(user: string, key: string, settings: Partial<MonitorSettings>): Promise<Monitor | undefined>;
  heartbeat(user: string, key: string, now: number): Promise<{ monitor: Monitor; previous: MonitorState } | undefined>;
  stale(now: number): Promise<Monitor[]>;
  markDown(user: string, key: string, now: number): Promise<boolean>;
  remove(user: string, key: string): Promise<number>;
  removeByUser(user: string): Promise<number>;
  close(): Promise<void>;
}
