import type { Added, CacheEntry } from '../store/message-cache.js';

interface Waiting {
  entries: readonly CacheEntry[];
  resolve(added: Added): void;
  reject(err: unknown): void;
}

interface Lane {
  queue: Waiting[];
  /** A commit is preparing, or waiting for the insert before it: the adds arriving now wait for the next. */
  taking: boolean;
  /** The insert in flight, settled either way (order only: each commit answers its own adds). */
  inserting: Promise<void>;
}

/** The commit's two steps (MessageCache's `prepare` and `add`): only the second needs the log's next position. */
export interface CommitSteps {
  prepare?(entries: readonly CacheEntry[]): Promise<void>;
  add(entries: readonly CacheEntry[], prepared: boolean): Promise<Added>;
}

/**
 * The commits of one log, merged: every add() that arrives for the same log (this node's
 * publish pipeline, the adds its peers forward) while a commit prepares waits, and the next
 * commit takes them all, each answered with its own entries' sequence numbers. On a log
 * every node appends to, this is what keeps the commits big and the nodes from racing
 * each other for its next position (one leader per log commits, see peer-links.ts).
 *
 * Two commits overlap: the next one prepares (MongoDB: reserves its ids, a round trip)
 * while the one before it inserts, and inserts when that insert ended. The nodes' adds come
 * in several groups (each node sends its next once its last was answered), so a
 * commit's insert and the next group's reservation share a round trip: on FerretDB at
 * 5 ms each way three nodes committed a merged batch every ~55 ms without this (reserve
 * 22, insert 33). Order holds: inserts run in the order their commits took their adds,
 * and adds in arrival order. A failed commit fails every add it took; `replaced` lists
 * what the whole commit replaced (cancelling a job twice is harmless).
 */
export class MergedAdds {
  private readonly lanes = new Map<number, Lane>();

  constructor(private readonly steps: CommitSteps) {}

  commit(log: number, entries: readonly CacheEntry[]): Promise<Added> {
    let lane = this.lanes.get(log);
    if (!lane) this.lanes.set(log, (lane = { queue: [], taking: false, inserting: Promise.resolve() }));
    const own = lane;
    return new Promise((resolve, reject) => {
      own.queue.push({ entries, resolve, reject });
      if (!own.taking) void this.take(own);
    });
  }

  /** Takes what waits, prepares it, and starts its insert once the one before it ended; again while adds wait. */
  private async take(lane: Lane): Promise<void> {
    lane.taking = true;
    while (lane.queue.length > 0) {
      const taken = lane.queue.splice(0);
      const entries = taken.flatMap((w) => w.entries);
      try {
        await this.steps.prepare?.(entries);
      } catch (err) {
        for (const w of taken) w.reject(err);
        continue;
      }
      await lane.inserting;
      lane.inserting = this.insert(taken, entries);
    }
    lane.taking = false;
  }

  private async insert(taken: readonly Waiting[], entries: readonly CacheEntry[]): Promise<void> {
    try {
      const { seqs, replaced } = await this.steps.add(entries, this.steps.prepare !== undefined);
      let at = 0;
      for (const w of taken) w.resolve({ seqs: seqs.slice(at, (at += w.entries.length)), replaced });
    } catch (err) {
      for (const w of taken) w.reject(err);
    }
  }
}
