import { messageJson, type Message } from '../../model/message.js';
import type { Replay, ReplayQuery } from '../message-cache.js';
import type { DroppedAttachments } from './dropped-attachments.js';
import type { LogBatch, LogEvent, MessageLog } from './message-log.js';
import { byTimeThenPosition, NewestWithin, type Found } from './newest-within.js';
import type { ScheduledMessages } from './scheduled.js';

const replayed: ReadonlySet<LogEvent['kind']> = new Set(['stored', 'released']);

/**
 * Replays of one topic from the log, with the SQLite cache's semantics: expiry applied at
 * query time (the capped log cannot delete), ordered by time then position, the newest
 * that fit `maxBytes`, scheduled messages from the waiting collection when asked.
 *
 * FerretDB 1.24 answers a query on an array field (`topics`, `ids`) with a scan of the
 * collection, not its index: a replay costs the whole log there, and an index lookup on
 * MongoDB.
 */
export class LogReplay {
  constructor(
    private readonly log: MessageLog,
    private readonly scheduled: ScheduledMessages,
    private readonly dropped: DroppedAttachments,
  ) {}

  async replay(q: ReplayQuery): Promise<Replay> {
    const { topic, since } = q;
    if (since.kind === 'none') return { json: [], bytes: 0, truncated: false, maybeLive: [] };
    const now = Math.floor(Date.now() / 1000);
    const after = since.kind === 'id' ? await this.positionOf(since.id) : undefined;
    const fromTime = since.kind === 'time' ? since.time : -Infinity;
    // The batches stream past (one cursor batch at a time) and only the newest that fit
    // maxBytes are held: a replay never holds more than it may send.
    const within = new NewestWithin(q.maxBytes);
    let latest: Found | undefined;
    for await (const batch of this.log.batches.find(after === undefined ? { topics: topic } : { topics: topic, last: { $gt: after } })) {
      for (const { event: e, pos } of found(batch)) {
        if (e.topic !== topic || !replayed.has(e.kind) || e.expires <= now || e.time < fromTime || pos <= (after ?? 0)) continue;
        const message = { id: e.id, time: e.time, json: e.json, pos, ...(e.attachment ? { attachment: e.attachment } : {}) };
        if (since.kind !== 'latest') within.offer(message);
        else if (!latest || byTimeThenPosition(message, latest) > 0) latest = message;
      }
    }
    if (since.kind === 'latest') {
      if (latest) within.offer(latest);
    } else if (q.scheduled) {
      for (const waiting of await this.waiting(topic, now, fromTime)) within.offer(waiting);
    }
    const kept = within.kept();
    const dropped = await this.dropped.among(kept.filter((m) => m.attachment).map((m) => m.id));
    const live = q.livePosition;
    const json = kept.map((m) => (dropped.has(m.id) ? withoutAttachment(m.json) : m.json));
    return {
      json,
      bytes: json.reduce((sum, j) => sum + Buffer.byteLength(j), 0),
      truncated: within.truncated,
      maybeLive: live === undefined ? [] : kept.filter((m) => m.pos > live).map((m) => m.id),
    };
  }

  /**
   * The position of message `id`: of its release if it was released, else of its commit;
   * undefined when the log does not hold it (since=<unknown id> replays everything).
   */
  async positionOf(id: string): Promise<number | undefined> {
    const [claimed, held] = await Promise.all([
      this.log.batches.findOne({ claim: id }),
      this.log.batches.find({ ids: id }).sort({ _id: -1 }).limit(1).next(),
    ]);
    for (const batch of [claimed, held]) {
      const hit = batch && found(batch).find(({ event }) => event.id === id);
      if (hit) return hit.pos;
    }
    return undefined;
  }

  /** Scheduled messages of `topic` still waiting: not expired, and not claimed by a release or a replacement. */
  private async waiting(topic: string, now: number, fromTime: number): Promise<Found[]> {
    const candidates = (await this.scheduled.inTopic(topic)).filter((w) => w.expires > now && w.time >= fromTime);
    if (candidates.length === 0) return [];
    // A claim whose process died before it removed the waiting copy still counts.
    const claimed = new Set(
      (await this.log.batches.find({ claim: { $in: candidates.map((w) => w._id) } }, { projection: { claim: 1 } }).toArray()).map((b) => b.claim),
    );
    return candidates.filter((w) => !claimed.has(w._id)).map((w) => ({ ...w, id: w._id }));
  }
}

/** Each event of `batch` with its position. */
export function found(batch: LogBatch): { event: LogEvent; pos: number }[] {
  return batch.events.map((event, i) => ({ event, pos: batch._id + i }));
}

function withoutAttachment(json: string): string {
  return messageJson({ ...(JSON.parse(json) as Message), attachment: undefined });
}
