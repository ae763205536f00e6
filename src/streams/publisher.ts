import { groupBy, mergeMap, Subject, type OperatorFunction, type Subscription } from 'rxjs';
import { messageJson, type Message } from '../model/message.js';
import { Outbound } from '../model/outbound.js';
import type { LiveFeed } from '../store/live-feed.js';
import type { Added, CacheEntry, MessageCache } from '../store/message-cache.js';
import { groupCommit } from '../operators/group-commit.js';

export interface PublishOptions {
  /** Store the message (false: `Cache: no`, live subscribers only). */
  cache: boolean;
  /** Deliver now; false for a scheduled message, delivered by its job at `message.time`. */
  deliver: boolean;
  /** Sent by a UnifiedPush app server (`up=1`): not forwarded upstream (see `Forward`). */
  unifiedPush?: boolean;
}

/**
 * Where every event this server committed goes once it went live, besides the live feed:
 * the push gateways (Web Push, the upstream poll request). Called once per event on the
 * node that committed it (or released it, for a scheduled message), after the publishers
 * were answered; it must only queue its work.
 */
export type Forward = (event: Outbound, unifiedPush: boolean) => void;

/** The scheduler as the publisher uses it (see Scheduler). */
export interface DeliverySchedule {
  deliverAt(id: string, at: Date): Promise<void>;
  cancel(ids: readonly string[]): Promise<void>;
}

interface Settle<T> {
  resolve(value: T): void;
  reject(err: unknown): void;
}
interface PendingPublish extends PublishOptions, Settle<Outbound> {
  kind: 'publish';
  message: Message;
}
interface PendingRelease extends Settle<void> {
  kind: 'release';
  id: string;
}
type Pending = PendingPublish | PendingRelease;

/** What the pipeline reports as it goes (the metrics); each call must be O(1). */
export interface PublishObserver {
  /** A batch of `size` publishes and releases committed in one transaction, which took `seconds`. */
  committed(size: number, seconds: number): void;
}

/** The longest a slow commit's successor waits for its publishers' next publishes (operators/group-commit.ts). */
const lingerMaxMs = 10;

export interface PublisherOptions {
  batchSize: number;
  batchTimeoutMs: number;
  onCommitError(err: unknown, count: number): void;
  onCancelError(err: unknown): void;
  observer?: PublishObserver | undefined;
  forward?: Forward | undefined;
  /** Where a lane's stored publishes commit (cluster/peering.ts: through the log's leader); the cache's `add` by default. */
  add?: (entries: readonly CacheEntry[]) => Promise<Added>;
}

/**
 * The publish pipeline: store, then acknowledge, then deliver (DESIGN.md). Concurrent
 * publishes are batched into one cache transaction (group commit, operators/group-commit.ts):
 * an idle pipeline commits what arrived in one event-loop turn, and while a commit is in
 * flight the next one gathers everything that arrives, so on a store a round trip away
 * batches grow with the load instead of queueing a commit per turn. Only after a batch
 * commits is the live feed told what went live, in commit order, and are the publishers
 * answered (the feed delivers: see LiveFeed). ntfy answers before its
 * batch is written; Tocsin never acknowledges a message it could still lose. Scheduled
 * messages due now are released through the same pipeline, so commit order stays the
 * order subscribers see.
 *
 * A store of several ordered logs (`database-shards`) gets one such pipeline per log: a
 * commit waits only for commits to its own log, not for a round trip to another, whose
 * order it does not share (a topic is in one log).
 */
export class Publisher {
  private readonly queue = new Subject<Pending>();
  private readonly pipeline: Subscription;
  private readonly drained: Promise<void>;
  private readonly add: (entries: readonly CacheEntry[]) => Promise<Added>;
  private published = 0;

  constructor(
    private readonly cache: MessageCache,
    private readonly feed: LiveFeed,
    private readonly schedule: DeliverySchedule,
    private readonly options: PublisherOptions,
  ) {
    this.add = options.add ?? ((entries) => cache.add(entries));
    let markDrained = (): void => undefined;
    this.drained = new Promise((resolve) => (markDrained = resolve));
    const commits = groupCommit(
      // A failed commit fails its own publishes only; the pipeline goes on.
      (batch: Pending[]) =>
        this.commit(batch).catch((err: unknown) => {
          options.onCommitError(err, batch.length);
          for (const p of batch) p.reject(err);
        }),
      { maxSize: options.batchSize, maxWaitMs: options.batchTimeoutMs, lingerMaxMs },
    );
    const logOf = cache.logOf?.bind(cache);
    // One log (SQLite's): no lanes to sort publishes into on the hot path.
    const lanes: OperatorFunction<Pending, void> = logOf
      ? (pending) =>
          pending.pipe(
            // A release's topic is unknown until the store reads it: releases share log 0's lane.
            groupBy((p) => (p.kind === 'publish' ? logOf(p.message.topic) : 0)),
            mergeMap((lane) => lane.pipe(commits)),
          )
      : commits;
    this.pipeline = this.queue
      .pipe(lanes)
      .subscribe({ complete: () => markDrained() });
  }

  /**
   * Stores and delivers `message`, or for a scheduled one stores it and schedules its
   * delivery. The job is saved first: should the process die before the message commits,
   * the job finds nothing to deliver, whereas the other order could strand the message.
   */
  async publish(message: Message, options: PublishOptions): Promise<Outbound> {
    if (!options.deliver) await this.schedule.deliverAt(message.id, new Date(message.time * 1000));
    return new Promise((resolve, reject) => this.queue.next({ kind: 'publish', message, ...options, resolve, reject }));
  }

  /** Delivers a scheduled message whose time has come; nothing if it was replaced, deleted or already delivered. */
  release(id: string): Promise<void> {
    return new Promise((resolve, reject) => this.queue.next({ kind: 'release', id, resolve, reject }));
  }

  /** Messages accepted since start. */
  get count(): number {
    return this.published;
  }

  /** Commits what is queued and stops taking messages. */
  async drain(): Promise<void> {
    this.queue.complete();
    await this.drained;
    this.pipeline.unsubscribe();
  }

  private async commit(batch: Pending[]): Promise<void> {
    const started = performance.now();
    const publishes = batch.filter((p) => p.kind === 'publish');
    const releases = batch.filter((p) => p.kind === 'release');
    const jsons = publishes.map((p) => messageJson(p.message));
    const stored = publishes.flatMap((p, i) => (p.cache ? [{ message: p.message, json: jsons[i] as string, published: p.deliver }] : []));
    const { seqs, replaced } = stored.length > 0 ? await this.add(stored) : { seqs: [], replaced: [] };
    const released = releases.length > 0 ? await this.cache.release(releases.map((r) => r.id)) : [];
    this.options.observer?.committed(batch.length, (performance.now() - started) / 1000);
    let next = 0;
    const live: Outbound[] = [];
    const events = publishes.map((p, i) => {
      const event = Outbound.of(p.message, jsons[i] as string, p.cache ? seqs[next++] : undefined);
      if (p.deliver) live.push(event);
      return event;
    });
    live.push(...released);
    // Awaited only while the feed is still handing the batch on (see LiveFeed.committed).
    const handing = live.length > 0 ? this.feed.committed(live) : undefined;
    if (handing) await handing;
    publishes.forEach((p, i) => p.resolve(events[i] as Outbound));
    this.published += publishes.length;
    for (const r of releases) r.resolve();
    const forward = this.options.forward;
    if (forward) {
      // In the order they went live: the delivered publishes, then the released messages.
      publishes.forEach((p, i) => p.deliver && forward(events[i] as Outbound, p.unifiedPush === true));
      for (const event of released) forward(event, false);
    }
    // A replaced message's job would find nothing to deliver; dropping it keeps the job store small.
    if (replaced.length > 0) this.schedule.cancel(replaced).catch(this.options.onCancelError);
  }
}
