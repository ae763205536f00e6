import type { Added, CacheEntry } from '../store/message-cache.js';

interface Waiting {
  entries: readonly CacheEntry[];
  resolve(added: Added): void;
  reject(err: unknown): void;
}

interface Lane {
  queue: Waiting[];
  busy: boolean;
}

/**
 * The commits of one log, merged: while one is in flight, every add() that arrives for the
 * same log (this node's publish pipeline, the adds its peers forward) waits, and the next
 * commit takes them all, each answered with its own entries' sequence numbers. On a log
 * every node appends to, this is what keeps the commits big and the nodes from racing
 * each other for its next position (one leader per log commits, see peer-links.ts).
 * Order holds: entries commit in the order their adds arrived. A failed commit fails
 * every add it took; `replaced` lists what the whole commit replaced (cancelling a job
 * twice is harmless).
 */
export class MergedAdds {
  private readonly lanes = new Map<number, Lane>();

  constructor(private readonly add: (entries: readonly CacheEntry[]) => Promise<Added>) {}

  commit(log: number, entries: readonly CacheEntry[]): Promise<Added> {
    let lane = this.lanes.get(log);
    if (!lane) this.lanes.set(log, (lane = { queue: [], busy: false }));
    const own = lane;
    return new Promise((resolve, reject) => {
      own.queue.push({ entries, resolve, reject });
      if (!own.busy) void this.run(own);
    });
  }

  private async run(lane: Lane): Promise<void> {
    lane.busy = true;
    while (lane.queue.length > 0) {
      const taken = lane.queue.splice(0);
      try {
        const { seqs, replaced } = await this.add(taken.flatMap((w) => w.entries));
        let at = 0;
        for (const w of taken) w.resolve({ seqs: seqs.slice(at, (at += w.entries.length)), replaced });
      } catch (err) {
        for (const w of taken) w.reject(err);
      }
    }
    lane.busy = false;
  }
}
