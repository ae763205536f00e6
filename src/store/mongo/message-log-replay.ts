import { messageJson, type Message } from '../../model/message.js';
import type { Replay, ReplayQuery } from '../message-cache.js';
import type { DroppedAttachments } from './dropped-attachments.js';
import type { LogBatch, LogEvent, MessageLog } from './message-log.js';
import type { ScheduledMessages } from './scheduled.js';

/** A message a replay may return, at its position. */
interface Found {
  pos: number;
  id: string;
  time: number;
  json: string;
  attachment?: true;
}

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
    const batches = await this.log.batches.find(after === undefined ? { topics: topic } : { topics: topic, last: { $gt: after } }).toArray();
    const published = batches.flatMap((batch) =>
      found(batch).filter(({ event: e, pos }) => e.topic === topic && replayed.has(e.kind) && e.expires > now && e.time >= fromTime && pos > (after ?? 0)),
    );
    let messages: Found[] = published.map(({ event, pos }) => ({ ...event, pos })).sort(byTimeThenPosition);
    if (since.kind === 'latest') messages = messages.slice(-1);
    else if (q.scheduled) messages = [...messages, ...(await this.waiting(topic, now, fromTime))].sort(byTimeThenPosition);
    const { kept, truncated } = newestWithin(messages, q.maxBytes);
    const dropped = await this.dropped.among(kept.filter((m) => m.attachment).map((m) => m.id));
    const live = q.livePosition;
    const json = kept.map((m) => (dropped.has(m.id) ? withoutAttachment(m.json) : m.json));
    return {
      json,
      bytes: json.reduce((sum, j) => sum + Buffer.byteLength(j), 0),
      truncated,
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

function byTimeThenPosition(a: Found, b: Found): number {
  return a.time - b.time || a.pos - b.pos;
}

/** The newest messages whose JSON fits `maxBytes`, oldest first. */
function newestWithin(messages: Found[], maxBytes: number): { kept: Found[]; truncated: boolean } {
  let bytes = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    bytes += Buffer.byteLength((messages[i] as Found).json);
    if (bytes > maxBytes) return { kept: messages.slice(i + 1), truncated: true };
  }
  return { kept: messages, truncated: false };
}

function withoutAttachment(json: string): string {
  return messageJson({ ...(JSON.parse(json) as Message), attachment: undefined });
}
