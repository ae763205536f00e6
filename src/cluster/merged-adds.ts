import type { Added, CacheEntry } from '../store/message-cache.js';

interface Waiting {
  entries: readonly CacheEntry[];
  /** Who sent the add: this node's pipeline, or a peer's link. */
  source: unknown;
  resolve(added: Added): void;
  reject(err: unknown): void;
}

interface Lane {
  queue: Waiting[];
  /** A commit is gathering, or waiting for the insert before it: the adds arriving now wait for the next. */
  taking: boolean;
  /** The insert in flight, settled either way (order only: each commit answers its own adds). */
  inserting?: Promise<void> | undefined;
  /** The sources of the last two commits: those a commit waits for (see gather). */
  active: Set<unknown>[];
  /** How long the last commit took, from its take to its answer (ms). */
  lastMs: number;
  /** Wakes a gathering commit when an add arrives. */
  arrived?: () => void;
}

/** The longest a commit waits for the adds of sources that were in the last ones (see gather). */
const gatherMaxMs = 10;

/** A commit of entries to the log (MessageCache's `add`). */
export type Add = (entries: readonly CacheEntry[]) => Promise<Added>;

/**
 * The commits of one log, merged: every add() that arrives for the same log (this node's
 * publish pipeline, the adds its peers forward) while a commit is in flight waits, and the
 * next commit takes them all, each answered with its own entries' sequence numbers. On a
 * log every node appends to, this is what keeps the commits big and the nodes from racing
 * each other for its next position (one leader per log commits, see peer-links.ts). Order
 * holds: one insert at a time, adds in arrival order. A failed commit fails every add it
 * took; `replaced` lists what the whole commit replaced (cancelling a job twice is
 * harmless).
 *
 * Each source (a node's pipeline for this log) has at most one add here at a time: it sends
 * the next when the last is answered. So once an insert ended, the next commit waits,
 * briefly, for the sources of the last two commits that have none queued: the nodes the
 * insert answered come back a few milliseconds later (the answer's hop, their publishers'
 * next requests, the hop back), and without the wait each commit took only the nodes the
 * one before had not (three FerretDB nodes at 0 and 5 ms each way: 2,173 and 1,615
 * publishes/s, then 3,224 and 2,234 with it), while a commit's fixed cost on FerretDB is
 * several milliseconds of its CPU. With one source it never waits.
 */
export class MergedAdds {
  private readonly lanes = new Map<number, Lane>();

  constructor(private readonly add: Add) {}

  commit(log: number, entries: readonly CacheEntry[], source: unknown): Promise<Added> {
    let lane = this.lanes.get(log);
    if (!lane) this.lanes.set(log, (lane = { queue: [], taking: false, active: [], lastMs: 0 }));
    const own = lane;
    return new Promise((resolve, reject) => {
      own.queue.push({ entries, source, resolve, reject });
      own.arrived?.();
      if (!own.taking) void this.take(own);
    });
  }

  /** Once the insert before it ended, gathers what waits and inserts it; again while adds wait. */
  private async take(lane: Lane): Promise<void> {
    lane.taking = true;
    while (lane.queue.length > 0) {
      // Neither awaited when there is nothing to wait for: the adds of this turn are taken now.
      if (lane.inserting) await lane.inserting;
      const gathering = this.gather(lane);
      if (gathering) await gathering;
      const taken = lane.queue.splice(0);
      const startedAt = performance.now();
      lane.active = [lane.active.at(-1) ?? new Set(), new Set(taken.map((w) => w.source))];
      // The next take awaits this one before it starts another, so it is the lane's alone until it settles.
      lane.inserting = this.insert(lane, taken, startedAt).finally(() => {
        lane.inserting = undefined;
      });
    }
    lane.taking = false;
  }

  /**
   * Waits until every recent source has an add queued, at most half the last commit's
   * time (gatherMaxMs at most); undefined when none is missing.
   */
  private gather(lane: Lane): Promise<void> | undefined {
    const expected = new Set(lane.active.flatMap((sources) => [...sources]));
    if (expected.size < 2) return undefined;
    const missing = (): boolean => {
      const queued = new Set(lane.queue.map((w) => w.source));
      return [...expected].some((source) => !queued.has(source));
    };
    if (!missing()) return undefined;
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, Math.min(lane.lastMs / 2, gatherMaxMs));
      lane.arrived = () => {
        if (!missing()) done();
      };
      function done(): void {
        clearTimeout(timer);
        lane.arrived = undefined;
        resolve();
      }
    });
  }

  private async insert(lane: Lane, taken: readonly Waiting[], startedAt: number): Promise<void> {
    try {
      const { seqs, replaced } = await this.add(taken.flatMap((w) => w.entries));
      let at = 0;
      for (const w of taken) w.resolve({ seqs: seqs.slice(at, (at += w.entries.length)), replaced });
    } catch (err) {
      for (const w of taken) w.reject(err);
    } finally {
      lane.lastMs = performance.now() - startedAt;
    }
  }
}
