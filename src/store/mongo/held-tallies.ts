import type { AnyBulkWriteOperation, Collection, Db } from 'mongodb';
import { collection } from './concerns.js';
import type { LogEvent } from './message-log.js';
import { WriteSpacing } from './write-spacing.js';

/** Seconds of expiry one tally document covers: one document a minute of expiries per node. */
const bucketSeconds = 60;

/**
 * A topic's document is written again once its newest expiry passed what was written by
 * this much: a node writes a busy topic once every 10 minutes, not at every commit, and
 * `topics` may leave a topic out up to 10 minutes before its last message expires (it
 * seeds the topic registry at start, a hint).
 */
const topicSlackSeconds = 600;

/** An in-memory bucket is dropped an hour after its last expiry: `prune` has long counted it. */
const keepBucketsSeconds = 3600;

/** A node writes its tallies at most this often as it commits (see `soon`): a few writes a second, not one per commit. */
const spacingMs = 250;

interface TallyDoc {
  /** `<node>:<until>`: each document has one writer, the instance that made it. */
  _id: string;
  node: string;
  /** The bucket's last expiry second: `prune` forgets the document after it. */
  until: number;
  /** Messages counted (`n`) by expiry (`e`): objects, as FerretDB 1.24 refuses nested arrays. */
  counts: { e: number; n: number }[];
  /** The earliest and latest `time` of those messages: how much of them the log still holds. */
  from: number;
  to: number;
}

interface TopicDoc {
  /** `<node>:<topic>`, one writer as above. */
  _id: string;
  topic: string;
  /** The newest expiry of its messages this node counted (up to topicSlackSeconds behind). */
  expires: number;
}

type Bucket = Omit<TallyDoc, '_id' | 'node' | 'until' | 'counts'> & { counts: Map<number, number> };

const counted: ReadonlySet<LogEvent['kind']> = new Set(['stored', 'released']);

/**
 * Counts of the messages the log holds, kept by each node for what it commits, so that
 * `count`, `topics` and `prune`'s answer read a few small documents instead of an
 * `$unwind` of the whole log (which FerretDB 1.24 does by reading every batch into Go).
 * Each instance writes only its own documents (absolute values, so a retried write is
 * harmless, and FerretDB's read-modify-write updates lose nothing); readers sum them all.
 * An instance's writes are chained, a later state never landing first.
 *
 * A batch is counted as its insert is sent, and uncounted if it fails; the counts are
 * written within `spacingMs` (no write added to a commit, nor waited for), and before any
 * read of them here. What that may be off by, and why it is fine for a metric:
 * - another node's reads miss this one's counts of the last `spacingMs`;
 * - a crash (or a failed batch whose correcting write fails too): at most the batches
 *   in flight counted though they never committed (they were never acknowledged), or this
 *   instance's counts of its last `spacingMs` unwritten; either until the messages'
 *   expiry, when `prune` forgets their bucket;
 * - the capped log drops batches before their messages expire: their share is estimated by
 *   time, a bucket whose messages are all older than the oldest held batch counting 0, one
 *   straddling it in proportion; off by at most a bucket's straddling part per node (with
 *   several logs, by the oldest of their oldest batches, also off by what the other logs
 *   dropped after it: topics spread evenly, so the logs wrap at about the same time);
 * - `topics` lists a topic until its newest counted expiry, even if the log dropped it.
 */
export class HeldTallies {
  private readonly buckets = new Map<number, Bucket>();
  private readonly dirty = new Set<number>();
  private readonly topicsWritten = new Map<string, number>();
  private readonly topicsDue = new Map<string, number>();
  private writes: Promise<unknown> = Promise.resolve();
  private readonly spacing = new WriteSpacing(spacingMs);

  private constructor(
    private readonly node: string,
    private readonly tallies: Collection<TallyDoc>,
    private readonly topics: Collection<TopicDoc>,
    private readonly onError: (err: unknown) => void,
  ) {}

  static open(db: Db, node: string, onError: (err: unknown) => void): HeldTallies {
    return new HeldTallies(node, collection<TallyDoc>(db, 'cache_tallies'), collection<TopicDoc>(db, 'cache_topics'), onError);
  }

  /** Counts the replayable events of a batch about to be inserted; answers how to uncount them. */
  count(events: readonly LogEvent[]): () => void {
    const mine = events.filter((e) => counted.has(e.kind));
    this.add(mine, 1);
    for (const { topic, expires } of mine) {
      const written = this.topicsWritten.get(topic);
      if (written === undefined || expires > written + topicSlackSeconds) this.topicsDue.set(topic, Math.max(expires, this.topicsDue.get(topic) ?? 0));
    }
    // A topic once due stays due: listing a topic a little longer is harmless.
    return () => this.add(mine, -1);
  }

  /** Writes what changed within `spacingMs` of the last write; a failure goes to `onError`, and the changes into the next write. */
  soon(): void {
    if (!this.spacing.waiting) this.spacing.putOff(() => void this.flush().catch(this.onError));
  }

  /** Writes what changed now (a clean stop: nothing left for `soon`). */
  async settle(): Promise<void> {
    this.spacing.cancel();
    await this.flush().catch(this.onError);
  }

  /** Writes what changed since the last write, after the writes before it. */
  private flush(): Promise<void> {
    this.spacing.began();
    const write = this.writes.then(() => this.write());
    this.writes = write.catch(() => undefined);
    return write;
  }

  /** Before a read: this node's counts written, or given up on (the read goes on without them). */
  private async written(): Promise<void> {
    await this.flush().catch(() => undefined);
  }

  /** Messages counted whose expiry is after `floor`, in the share the log still holds (it holds what is `since` or newer). */
  async held(floor: number, since: number): Promise<number> {
    return this.sum(since, (expires) => expires > floor);
  }

  /** Messages counted whose expiry is in (floor, now]: what a prune at `now` removes. */
  async expiring(floor: number, now: number, since: number): Promise<number> {
    return this.sum(since, (expires) => expires > floor && expires <= now);
  }

  /** Topics with a message counted whose expiry is after `floor`. */
  async topicsAfter(floor: number): Promise<string[]> {
    await this.written();
    return (await this.topics.find({ expires: { $gt: floor } }, { projection: { topic: 1 } }).toArray()).map((t) => t.topic);
  }

  /** Forgets the documents, of every node, whose messages all expired by `now`. */
  async prune(now: number): Promise<void> {
    await Promise.all([this.tallies.deleteMany({ until: { $lte: now } }), this.topics.deleteMany({ expires: { $lte: now } })]);
  }

  private add(events: readonly LogEvent[], sign: 1 | -1): void {
    for (const { expires, time } of events) {
      const until = (Math.floor(expires / bucketSeconds) + 1) * bucketSeconds - 1;
      const bucket = this.buckets.get(until) ?? { counts: new Map(), from: time, to: time };
      this.buckets.set(until, bucket);
      bucket.counts.set(expires, (bucket.counts.get(expires) ?? 0) + sign);
      [bucket.from, bucket.to] = [Math.min(bucket.from, time), Math.max(bucket.to, time)];
      this.dirty.add(until);
    }
  }

  private async sum(since: number, within: (expires: number) => boolean): Promise<number> {
    await this.written();
    let total = 0;
    for (const doc of await this.tallies.find({}).toArray()) {
      const messages = doc.counts.reduce((sum, { e, n }) => (within(e) ? sum + n : sum), 0);
      total += messages * heldShare(doc, since);
    }
    return Math.round(total);
  }

  private async write(): Promise<void> {
    const until = [...this.dirty];
    const topics = [...this.topicsDue];
    this.dirty.clear();
    this.topicsDue.clear();
    try {
      await Promise.all([this.writeBuckets(until), this.writeTopics(topics)]);
    } catch (err) {
      for (const u of until) this.dirty.add(u);
      for (const [topic, expires] of topics) this.topicsDue.set(topic, Math.max(expires, this.topicsDue.get(topic) ?? 0));
      throw err;
    }
    for (const [topic, expires] of topics) this.topicsWritten.set(topic, expires);
    this.forgetOld(Math.floor(Date.now() / 1000) - keepBucketsSeconds);
  }

  private async writeBuckets(until: number[]): Promise<void> {
    const ops: AnyBulkWriteOperation<TallyDoc>[] = until.flatMap((u) => {
      const bucket = this.buckets.get(u);
      if (!bucket) return [];
      const set = { node: this.node, until: u, counts: [...bucket.counts].map(([e, n]) => ({ e, n })), from: bucket.from, to: bucket.to };
      return [{ updateOne: { filter: { _id: `${this.node}:${u}` }, update: { $set: set }, upsert: true } }];
    });
    if (ops.length > 0) await this.tallies.bulkWrite(ops, { ordered: false });
  }

  private async writeTopics(topics: [string, number][]): Promise<void> {
    if (topics.length === 0) return;
    const ops: AnyBulkWriteOperation<TopicDoc>[] = topics.map(([topic, expires]) => ({
      updateOne: { filter: { _id: `${this.node}:${topic}` }, update: { $set: { topic, expires } }, upsert: true },
    }));
    await this.topics.bulkWrite(ops, { ordered: false });
  }

  private forgetOld(before: number): void {
    for (const until of this.buckets.keys()) if (until < before && !this.dirty.has(until)) this.buckets.delete(until);
    for (const [topic, expires] of this.topicsWritten) if (expires < before) this.topicsWritten.delete(topic);
  }
}

/** The share of a tally's messages the log still holds, estimated by their times against `since`, the oldest batch's. */
function heldShare(doc: TallyDoc, since: number): number {
  if (doc.from >= since) return 1;
  if (doc.to < since) return 0;
  return (doc.to - since + 1) / (doc.to - doc.from + 1);
}
