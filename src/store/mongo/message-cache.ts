import type { Db } from 'mongodb';
import type { Message } from '../../model/message.js';
import { Outbound } from '../../model/outbound.js';
import type { Added, CacheEntry, MessageCache, Replay, ReplayQuery } from '../message-cache.js';
import { DroppedAttachments } from './dropped-attachments.js';
import { MessageIds } from './message-ids.js';
import type { LogBatch, LogEvent, MessageLog } from './message-log.js';
import { batchDrafts } from './batch-drafts.js';
import { found, LogReplay } from './message-log-replay.js';
import { NodeCounters } from './node-counters.js';
import { ScheduledMessages } from './scheduled.js';
import { writeFailure } from './write-error.js';

/** The events whose sequence id replaces (or deletes) a scheduled message still waiting. */
const replacing: ReadonlySet<Message['event']> = new Set(['message', 'message_delete']);

/** Counted by `count`, pruned by `prune`: what SQLite keeps as published rows. */
/** The counter of the imported server's total: one document, set by every import. */
const importedStats = 'import';

const counted = { 'events.kind': { $in: ['stored', 'released'] } };

/**
 * The message cache on the MongoDB log (message-log.ts), shared by every node on the
 * database. A batch commits as one log insert, after its ids are reserved (message-ids.ts)
 * and before its waiting messages are copied out (scheduled.ts). Releasing and replacing
 * a scheduled message both claim it by a log insert with a unique `claim`, so exactly one
 * of them wins, on any node. Expiry is applied at query time: `prune` moves a watermark
 * below which `count` and `topics` no longer see messages, as SQLite's delete would.
 *
 * Failures after the log insert (the copies into scheduled_messages, the removal of what
 * a claim took) do not fail the batch, which committed: they go to `onError`, and what
 * they leave is tolerated by readers (see ScheduledMessages and LogReplay.waiting).
 */
export class MongoMessageCache implements MessageCache {
  private added = 0;
  private readonly replays: LogReplay;

  private constructor(
    private readonly log: MessageLog,
    private readonly ids: MessageIds,
    private readonly scheduled: ScheduledMessages,
    private readonly dropped: DroppedAttachments,
    private readonly counters: NodeCounters,
    private readonly onError: (err: unknown) => void,
  ) {
    this.replays = new LogReplay(log, scheduled, dropped);
  }

  static async open(db: Db, log: MessageLog, onError: (err: unknown) => void): Promise<MongoMessageCache> {
    return new MongoMessageCache(log, MessageIds.open(db), await ScheduledMessages.open(db), DroppedAttachments.open(db), NodeCounters.open(db), onError);
  }

  async add(entries: readonly CacheEntry[]): Promise<Added> {
    const events = entries.map(toEvent);
    const ids = events.map(({ id, expires }) => ({ id, expires }));
    await writing(() => this.ids.reserve(ids));
    const appended: LogBatch[] = [];
    const replaced = await this.insert(entries, events, appended).catch(async (err: unknown) => {
      const kept = new Set(appended.flatMap((b) => b.ids ?? []));
      await this.ids.free(ids.map(({ id }) => id).filter((id) => !kept.has(id))).catch(this.onError);
      throw writeFailure(err);
    });
    const committed = appended.flatMap(found);
    const waiting = committed.filter(({ event }) => event.kind === 'waiting');
    await this.scheduled.hold(waiting).catch(this.onError);
    await this.scheduled.remove(replaced).catch(this.onError);
    return { seqs: committed.map(({ pos }) => pos), replaced };
  }

  /**
   * The batch's log inserts into `appended`, after the claims of the waiting messages it
   * replaces; answers those. A batch too big for one document is written as several in
   * order (batch-runs.ts): should one fail, those before it stand, committed and delivered,
   * though the publishes of the whole batch fail (as a write whose acknowledgement was lost).
   */
  private async insert(entries: readonly CacheEntry[], events: LogEvent[], appended: LogBatch[]): Promise<string[]> {
    const replaced = await this.replaceWaiting(entries, events);
    for (const draft of batchDrafts(events)) appended.push(await this.log.append(draft));
    return replaced;
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
      for (const id of await this.scheduled.under(m.topic, m.sequence_id)) {
        if (!replaced.includes(id) && (await this.log.claim(id, { events: [] }))) replaced.push(id);
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
    const waiting: LogEvent | undefined = copy ? { ...copy, id, kind: 'waiting' } : await this.waitingInLog(id);
    if (!waiting) return undefined;
    const event: LogEvent = { ...waiting, kind: 'released' };
    const batch = await this.log.claim(id, { topics: [event.topic], events: [event] });
    // Claimed now or before (a process that died before removing it): the copy goes.
    await this.scheduled.remove([id]).catch(this.onError);
    return batch;
  }

  /** A waiting message whose copy is missing: its process died between the log insert and the copy, or it was claimed. */
  private async waitingInLog(id: string): Promise<LogEvent | undefined> {
    const batch = await this.log.batches.findOne({ ids: id });
    return batch?.events.find((e) => e.id === id && e.kind === 'waiting');
  }

  replay(query: ReplayQuery): Promise<Replay> {
    return this.replays.replay(query);
  }

  async prune(nowSeconds: number): Promise<number> {
    const floor = await this.prunedBefore();
    const expired = await this.countEvents({ 'events.expires': { $gt: floor, $lte: nowSeconds } });
    await this.counters.set('pruned', nowSeconds);
    await Promise.all([this.ids.prune(nowSeconds), this.dropped.prune(nowSeconds)]);
    return expired;
  }

  async dropAttachments(ids: readonly string[]): Promise<void> {
    const batches = await this.log.batches.find({ ids: { $in: [...ids] } }).toArray();
    const wanted = new Set(ids);
    const messages = batches.flatMap((b) => b.events).filter((e) => wanted.has(e.id) && e.attachment);
    await this.dropped.add(messages);
  }

  async topics(): Promise<Set<string>> {
    const floor = await this.prunedBefore();
    const [logged, waiting] = await Promise.all([
      this.log.batches
        .aggregate<{ _id: string }>([{ $unwind: '$events' }, { $match: { ...counted, 'events.expires': { $gt: floor } } }, { $group: { _id: '$events.topic' } }])
        .toArray(),
      this.scheduled.topics(),
    ]);
    return new Set([...logged.map((t) => t._id), ...waiting]);
  }

  async count(): Promise<number> {
    const floor = await this.prunedBefore();
    const [logged, waiting] = await Promise.all([this.countEvents({ 'events.expires': { $gt: floor } }), this.scheduled.count()]);
    return logged + waiting;
  }

  waiting(): Promise<number> {
    return this.scheduled.count();
  }

  bytes(): Promise<number> {
    return this.log.dataBytes();
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
    const held = await writing(() => this.ids.reserveAbsent(events.map(({ id, expires }) => ({ id, expires }))));
    // An id held but in no batch was reserved by an import cut off before its log insert:
    // its message is still missing.
    const logged = held.size === 0 ? new Set<string>() : await this.logged([...held]);
    const fresh = events.filter((e) => !logged.has(e.id));
    for (const draft of batchDrafts(fresh)) {
      const batch = await writing(() => this.log.append(draft));
      await this.scheduled.hold(found(batch).filter(({ event }) => event.kind === 'waiting')).catch(this.onError);
    }
    return fresh.length;
  }

  async setImportedStats(messages: number): Promise<void> {
    await this.counters.setShared('messages', importedStats, messages);
  }

  /** Which of `ids` a batch of the log holds. */
  private async logged(ids: string[]): Promise<Set<string>> {
    const batches = await this.log.batches.find({ ids: { $in: ids } }, { projection: { ids: 1 } }).toArray();
    const wanted = new Set(ids);
    return new Set(batches.flatMap((b) => b.ids ?? []).filter((id) => wanted.has(id)));
  }

  /** Messages that expired at or before this are pruned: `count` and `topics` leave them out. */
  private prunedBefore(): Promise<number> {
    // -1: before any prune, messages stored with no expiry (0) count, as in SQLite.
    return this.counters.max('pruned', -1);
  }

  private async countEvents(match: object): Promise<number> {
    const [result] = await this.log.batches
      .aggregate<{ n: number }>([{ $match: { topics: { $exists: true } } }, { $unwind: '$events' }, { $match: { ...counted, ...match } }, { $count: 'n' }])
      .toArray();
    return result?.n ?? 0;
  }
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

/** The events without a repeated id (an import's source may hold one twice), the first kept. */
function firstOfEachId(events: LogEvent[]): LogEvent[] {
  const seen = new Set<string>();
  return events.filter((e) => !seen.has(e.id) && seen.add(e.id));
}

/** Runs a write, reporting failures to reach the database as StoreWriteError. */
async function writing<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    throw writeFailure(err);
  }
}
