import type { Db } from 'mongodb';
import type { Message } from '../../model/message.js';
import { Outbound } from '../../model/outbound.js';
import type { Added, CacheEntry, MessageCache, Replay, ReplayQuery, Trimmed } from '../message-cache.js';
import { DroppedAttachments } from './dropped-attachments.js';
import { HeldTallies } from './held-tallies.js';
import { assertDistinctIds, firstOfEachId } from './event-ids.js';
import { batchesHolding, heldSince, lookUp, oldestHeld } from './log-lookups.js';
import { batchDrafts } from './batch-drafts.js';
import { ImportedIds } from './imported-ids.js';
import type { BatchDraft, LogBatch, LogEvent, MessageLog } from './message-log.js';
import type { LogShards } from './log-shards.js';
import { found, LogReplay } from './message-log-replay.js';
import { NodeCounters } from './node-counters.js';
import { ReleaseClaims } from './release-claims.js';
import { TopicTrims } from './topic-trims.js';
import { ScheduledMessages, type WaitingMessage, type WaitingRef } from './scheduled.js';
import { writeFailure } from './write-error.js';

/** The events whose sequence id replaces (or deletes) a scheduled message still waiting. */
const replacing: ReadonlySet<Message['event']> = new Set(['message', 'message_delete']);

/** The counter of the imported server's total: one document, set by every import. */
const importedStats = 'import';

/**
 * The message cache on the MongoDB logs (message-log.ts), shared by every node on the
 * database. A batch commits as one log insert into the log of each of its topics' shards
 * (log-shards.ts; inserts into different logs run at once), before its waiting messages
 * are copied out (scheduled.ts). Its ids are not checked against those held: the server
 * makes them at random (see MessageCache), and the check (a document per id, reserved
 * before the insert) cost FerretDB a write per message and every commit a round trip.
 * Without it, on FerretDB: one node +31% publishes/s, ×2.1 at 5 ms each way (bench/README.md).
 * Releasing and replacing a scheduled message both claim it, durably (release-claims.ts) and by a log insert with
 * a unique `claim`, so exactly one of them wins, on any node. Expiry is applied at query
 * time: `prune` moves a watermark below which `count` and `topics` no longer see
 * messages, as SQLite's delete would. Counts come from tallies each node keeps of what it
 * commits (held-tallies.ts), not from reading the log.
 *
 * Failures after the log insert (the copies into scheduled_messages, the removal of what
 * a claim took) do not fail the batch, which committed: they go to `onError`, and what
 * they leave is tolerated by readers (see ScheduledMessages and LogReplay.waiting).
 */
export class MongoMessageCache implements MessageCache {
  private added = 0;
  private readonly replays: LogReplay;

  private constructor(
    private readonly shards: LogShards,
    private readonly imported: ImportedIds,
    private readonly scheduled: ScheduledMessages,
    private readonly dropped: DroppedAttachments,
    private readonly counters: NodeCounters,
    private readonly claims: ReleaseClaims,
    private readonly tallies: HeldTallies,
    private readonly trims: TopicTrims,
    private readonly onError: (err: unknown) => void,
  ) {
    this.replays = new LogReplay(shards, scheduled, dropped, claims, trims);
  }

  static async open(db: Db, shards: LogShards, onError: (err: unknown) => void): Promise<MongoMessageCache> {
    const counters = NodeCounters.open(db);
    const [imported, scheduled, dropped, claims, tallies] = [ImportedIds.open(db), await ScheduledMessages.open(db), DroppedAttachments.open(db), ReleaseClaims.open(db), HeldTallies.open(db, counters.node, onError)];
    return new MongoMessageCache(shards, imported, scheduled, dropped, counters, claims, tallies, TopicTrims.open(db, shards), onError);
  }

  /** Writes what it holds back (the tallies of the last moment), before its client closes. */
  close(): Promise<void> {
    return this.tallies.settle();
  }

  logOf(topic: string): number {
    return this.shards.index(topic);
  }

  async add(entries: readonly CacheEntry[]): Promise<Added> {
    const events = entries.map(toEvent);
    assertDistinctIds(events);
    const { replaced, appended } = await writing(() => this.insert(entries, events));
    const committed = appended.flatMap(found);
    const waiting = committed.filter(({ event }) => event.kind === 'waiting');
    await this.scheduled.hold(waiting).catch(this.onError);
    await this.scheduled.remove(replaced).catch(this.onError);
    // Each event's position in its log; ids are distinct (checked above).
    const positions = new Map(committed.map(({ event, pos }) => [event.id, pos]));
    return { seqs: events.map(({ id }) => positions.get(id) as number), replaced };
  }

  /**
   * The batch's log inserts, after the claims of the waiting messages it replaces; answers
   * those and the batches written. Each shard's events go to its log, all logs at once. A batch
   * too big for one document is written as several in order, in one round trip
   * (batch-drafts.ts, MessageLog.appendAll): should one fail, those before it (and other
   * logs' inserts) stand, committed and delivered, though the publishes of the whole batch
   * fail (as a write whose acknowledgement was lost).
   */
  private async insert(entries: readonly CacheEntry[], events: LogEvent[]): Promise<{ replaced: string[]; appended: LogBatch[] }> {
    const replaced = await this.replaceWaiting(entries, events);
    const appended: LogBatch[] = [];
    await this.eachLog(events, async (log, own) => {
      const mine: LogBatch[] = [];
      await this.counted(own, () => log.appendAll(batchDrafts(own), (batch) => mine.push(batch)), () => mine.flatMap((b) => b.events));
      appended.push(...mine);
    });
    return { replaced, appended };
  }

  /** Runs `write` for each log's events (in order), all logs at once; fails with the first failure once all ended. */
  private async eachLog(events: readonly LogEvent[], write: (log: MessageLog, own: LogEvent[]) => Promise<void>): Promise<void> {
    const ends = await Promise.allSettled([...this.shards.split(events)].map(([log, own]) => write(log, own)));
    const failed = ends.find((end): end is PromiseRejectedResult => end.status === 'rejected');
    if (failed) throw failed.reason;
  }

  /**
   * Runs `write`, a log insert of `events`, with the events counted in the tallies (written
   * within a moment, not waited for: held-tallies.ts), and taken back out if the insert did
   * not happen (failed, or answered undefined: a claim already taken), but for those
   * `committed` names (the batches of several that did commit before one failed).
   */
  private async counted<T extends LogBatch | LogBatch[] | undefined>(events: readonly LogEvent[], write: () => Promise<T>, committed: () => readonly LogEvent[] = () => []): Promise<T> {
    const uncount = this.tallies.count(events);
    this.tallies.soon();
    const undo = (): void => {
      uncount();
      this.tallies.count(committed());
      this.tallies.soon();
    };
    try {
      const batch = await write();
      if (!batch) undo();
      return batch;
    } catch (err) {
      undo();
      throw err;
    }
  }

  /**
   * Claims waiting message `waiting` and inserts `draft` claiming it in the log, in the
   * order ReleaseClaims explains; undefined when it was claimed before (released or
   * replaced, by any node, this one included), or when a claim left pending by a crash can
   * no longer be told from a release the log dropped.
   */
  private async claimed(waiting: WaitingRef, draft: Omit<BatchDraft, 'claim'>): Promise<LogBatch | undefined> {
    const id = waiting._id;
    const log = this.shards.of(waiting.topic);
    const taken = await this.claims.take(id, Math.max(log.head, waiting.pos), waiting.expires);
    if (taken.by === 'other') {
      if (taken.settled) return undefined;
      const oldest = await oldestHeld(log.batches);
      if (!oldest || oldest.first > taken.after + 1) {
        this.onError(new Error(`message ${id}: its claim was left pending (a crash?) and the log no longer holds what followed it; not released, so it is not released twice`));
        return undefined;
      }
    }
    const batch = await this.counted(draft.events, () => log.claim(id, draft));
    if (batch) await this.claims.settle(id, batch._id).catch(this.onError);
    return batch;
  }

  /**
   * Claims the waiting messages each replacing event of the batch takes (SQLite's delete
   * in the same transaction, in entry order): those waiting in the cache before the batch,
   * claimed in the log ahead of the batch (a claim lost to a release means that release
   * went first), and those of the batch itself, which never wait (marked `cancelled`).
   * Should the batch's own insert then fail, these claims stand: the replaced messages are
   * gone though the batch is not (FerretDB 1.24 has no multi-document transactions, which
   * on MongoDB could hold both).
   */
  private async replaceWaiting(entries: readonly CacheEntry[], events: LogEvent[]): Promise<string[]> {
    const replaced: string[] = [];
    for (const [i, { message: m }] of entries.entries()) {
      if (m.sequence_id === undefined || !replacing.has(m.event)) continue;
      for (const waiting of await this.scheduled.under(m.topic, m.sequence_id)) {
        if (!replaced.includes(waiting._id) && (await this.claimed(waiting, { events: [] }))) replaced.push(waiting._id);
      }
      for (const [j, e] of events.slice(0, i).entries()) {
        if (e.kind !== 'waiting' || e.topic !== m.topic || e.sid !== m.sequence_id) continue;
        events[j] = { ...e, kind: 'cancelled' };
        replaced.push(e.id);
      }
    }
    return replaced;
  }

  async release(ids: readonly string[]): Promise<Outbound[]> {
    const released: Outbound[] = [];
    for (const id of ids) {
      const batch = await writing(() => this.releaseOne(id));
      if (batch) released.push(Outbound.stored((batch.events[0] as LogEvent).json, batch._id));
    }
    return released;
  }

  /** Publishes waiting message `id` under a fresh position, claiming it; undefined if it is not waiting. */
  private async releaseOne(id: string): Promise<{ _id: number; events: LogEvent[] } | undefined> {
    const copy = await this.scheduled.get(id);
    const waiting = copy ? waitingEvent(copy) : await this.waitingInLog(id);
    if (!waiting) return undefined;
    const { pos, ...event } = { ...waiting, kind: 'released' as const };
    const batch = await this.claimed({ _id: id, topic: event.topic, expires: event.expires, pos }, { topics: [event.topic], events: [event] });
    // Claimed now or before (a process that died before removing it): the copy goes.
    await this.scheduled.remove([id]).catch(this.onError);
    return batch;
  }

  /** A waiting message whose copy is missing: its process died between the log insert and the copy, or it was claimed. */
  private async waitingInLog(id: string): Promise<(LogEvent & { pos: number }) | undefined> {
    // Its topic is unknown, hence its log: each is asked.
    const batches = await lookUp(this.shards.logs, (log) => log.batches.findOne({ ids: id }));
    const hit = batches.flatMap((batch) => (batch ? found(batch) : [])).find(({ event: e }) => e.id === id && e.kind === 'waiting');
    return hit ? { ...hit.event, pos: hit.pos } : undefined;
  }

  replay(query: ReplayQuery): Promise<Replay> {
    return this.replays.replay(query);
  }

  async prune(nowSeconds: number): Promise<number> {
    const [floor, since] = await Promise.all([this.prunedBefore(), heldSince(this.shards.logs)]);
    const expired = await this.tallies.expiring(floor, nowSeconds, since);
    await this.counters.set('pruned', nowSeconds);
    await Promise.all([this.imported.prune(nowSeconds), this.dropped.prune(nowSeconds), this.trims.prune(nowSeconds), this.tallies.prune(nowSeconds), this.pruneClaims(nowSeconds)]);
    return expired;
  }

  /** Forgets the claims of expired messages, after the waiting copies a crash left of them (ReleaseClaims). */
  private async pruneClaims(nowSeconds: number): Promise<void> {
    const expired = await this.claims.expired(nowSeconds);
    await this.scheduled.remove(expired);
    await this.claims.forget(expired);
  }

  trim(topic: string, keep: number): Promise<Trimmed> {
    return this.trims.trim(topic, keep, Math.floor(Date.now() / 1000));
  }

  async dropAttachments(ids: readonly string[]): Promise<void> {
    const batches = await this.holding(ids);
    const wanted = new Set(ids);
    const messages = batches.flatMap((b) => b.events).filter((e) => wanted.has(e.id) && e.attachment);
    await this.dropped.add(messages);
  }

  async topics(): Promise<Set<string>> {
    const floor = await this.prunedBefore();
    const [logged, waiting] = await Promise.all([this.tallies.topicsAfter(floor), this.scheduled.topics()]);
    return new Set([...logged, ...waiting]);
  }

  async count(): Promise<number> {
    const [floor, since] = await Promise.all([this.prunedBefore(), heldSince(this.shards.logs)]);
    const [logged, waiting] = await Promise.all([this.tallies.held(floor, since), this.scheduled.count()]);
    return logged + waiting;
  }

  waiting(): Promise<number> {
    return this.scheduled.count();
  }

  async bytes(): Promise<number> {
    const sizes = await Promise.all(this.shards.logs.map((log) => log.dataBytes()));
    return sizes.reduce((sum, size) => sum + size, 0);
  }

  loadStats(): Promise<number> {
    return this.counters.sum('messages');
  }

  async addStats(messages: number): Promise<number> {
    this.added += messages;
    await this.counters.set('messages', this.added);
    return this.counters.sum('messages');
  }

  async import(entries: readonly CacheEntry[]): Promise<number> {
    const events = firstOfEachId(entries.map(toEvent));
    const held = await writing(() => this.imported.recordAbsent(events.map(({ id, expires }) => ({ id, expires }))));
    // An id recorded but in no batch was recorded by an import cut off before its log
    // insert: its message is still missing.
    const logged = held.size === 0 ? new Set<string>() : await this.logged([...held]);
    const fresh = events.filter((e) => !logged.has(e.id));
    await this.eachLog(fresh, async (log, own) => {
      for (const draft of batchDrafts(own)) {
        const batch = await writing(() => this.counted(draft.events, () => log.append(draft)));
        await this.scheduled.hold(found(batch).filter(({ event }) => event.kind === 'waiting')).catch(this.onError);
      }
    });
    return fresh.length;
  }

  async setImportedStats(messages: number): Promise<void> {
    await this.counters.setShared('messages', importedStats, messages);
  }

  /** Which of `ids` a batch of the logs holds. */
  private async logged(ids: string[]): Promise<Set<string>> {
    const batches = await this.holding(ids, { ids: 1 });
    const wanted = new Set(ids);
    return new Set(batches.flatMap((b) => b.ids ?? []).filter((id) => wanted.has(id)));
  }

  /** The batches of every log holding any of `ids` (whose topics, hence logs, are unknown). */
  private async holding(ids: readonly string[], projection?: Partial<Record<keyof LogBatch, 1>>): Promise<LogBatch[]> {
    const perLog = await Promise.all(this.shards.logs.map((log) => batchesHolding(log.batches, ids, projection)));
    return perLog.flat();
  }

  /** Messages that expired at or before this are pruned: `count` and `topics` leave them out. */
  private prunedBefore(): Promise<number> {
    // -1: before any prune, messages stored with no expiry (0) count, as in SQLite.
    return this.counters.max('pruned', -1);
  }
}

/** The log event of a waiting copy, and its position. */
function waitingEvent({ _id, pos, ...copy }: WaitingMessage): LogEvent & { pos: number } {
  return { ...copy, id: _id, kind: 'waiting', pos };
}

function toEvent({ message: m, json, published }: CacheEntry): LogEvent {
  return {
    id: m.id,
    topic: m.topic,
    time: m.time,
    expires: m.expires ?? 0,
    json,
    kind: published ? 'stored' : 'waiting',
    ...(m.sequence_id !== undefined && { sid: m.sequence_id }),
    ...(m.attachment !== undefined && { attachment: true as const }),
  };
}

/** Runs a write, reporting failures to reach the database as StoreWriteError. */
async function writing<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    throw writeFailure(err);
  }
}
