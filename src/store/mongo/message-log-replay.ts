import { messageJson, type Message } from '../../model/message.js';
import { noReplay, type Replay, type ReplayQuery } from '../message-cache.js';
import type { DroppedAttachments } from './dropped-attachments.js';
import type { LogBatch, LogEvent, MessageLog } from './message-log.js';
import type { LogShards } from './log-shards.js';
import { oldestHeld } from './log-lookups.js';
import { positionIn } from '../live-feed.js';
import { byTimeThenPosition, NewestWithin, type Found } from './newest-within.js';
import type { ReleaseClaims } from './release-claims.js';
import type { TopicTrims } from './topic-trims.js';
import type { ScheduledMessages } from './scheduled.js';

export const replayed: ReadonlySet<LogEvent['kind']> = new Set(['stored', 'released']);

/**
 * Batches a replay's cursor fetches at a time. With the newest messages that fit
 * `maxBytes` (NewestWithin), this bounds what a replay holds: a batch is at most
 * MongoDB's 16 MB document, usually a few kilobytes.
 */
const batchesPerFetch = 16;

/**
 * Replays of one topic from the log, with the SQLite cache's semantics: expiry applied at
 * query time (the capped log cannot delete), ordered by time then position, the newest
 * that fit `maxBytes`, scheduled messages from the waiting collection when asked.
 *
 * Every read is an equality on the topic (`{topics: t}`, served by the `topics` index on
 * MongoDB; on FerretDB 1.24 the one filter it hands to PostgreSQL, as
 * `_jsonb->'topics' @> '"t"'`, so only the topic's batches leave the database), with a
 * range on `_id` for since=<id> that MongoDB's index serves and FerretDB applies to those
 * batches only. The id of since=<id> is found by equality too (see positionOf), in the
 * topic's log (log-shards.ts); an id of another log's topic (a subscription to several
 * topics, since= one of them) replays what came from its time on, as positions of two
 * logs are not comparable.
 *
 * A replay's gap (MessageCache's contract) is seen on the way: the log still holds what
 * expired or was trimmed, which the replay skips, so either within its range is a
 * message dropped. What the capped log itself dropped is not seen: a replay that reaches
 * before the oldest batch a log that dropped batches holds (since=<time> before its time,
 * or an id it does not hold) reports a gap, as the log cannot tell whose messages went.
 */
export class LogReplay {
  constructor(
    private readonly shards: LogShards,
    private readonly scheduled: ScheduledMessages,
    private readonly dropped: DroppedAttachments,
    private readonly claims: ReleaseClaims,
    private readonly trims: TopicTrims,
  ) {}

  async replay(q: ReplayQuery): Promise<Replay> {
    const { topic, since } = q;
    if (since.kind === 'none') return noReplay();
    const now = Math.floor(Date.now() / 1000);
    // An id the log does not hold (unknown, or dropped by the capped log: a client back
    // after its stream was closed for a lost range) replays all the log still holds.
    const log = this.shards.of(topic);
    // The topic's trim floor (max-messages) and the log's oldest batch are lookups, made beside the position's.
    const [after, trimmed, oldest] = await Promise.all([
      since.kind === 'id' ? positionOf(log, since.id) : undefined,
      this.trims.floorOf(topic),
      since.kind === 'latest' ? undefined : oldestHeld(log.batches),
    ]);
    const elsewhere = since.kind === 'id' && !after ? await this.timeElsewhere(since.id, log) : undefined;
    const fromTime = since.kind === 'time' ? since.time : (elsewhere ?? -Infinity);
    const floor = trimmed ?? { time: -Infinity, pos: 0 };
    const reaches = since.kind === 'time' || since.kind === 'id';
    // An id of this topic's message that expired or was trimmed names a message no longer held, as SQLite's prune would have it.
    const named = after?.event.topic === topic ? { ...after.event, pos: after.pos } : undefined;
    let gap = reaches && after === undefined && oldest !== undefined && oldest.first > 1 && fromTime < oldest.time;
    gap ||= named !== undefined && named.expires !== 0 && (named.expires <= now || byTimeThenPosition(named, floor) <= 0);
    // The batches stream past (one cursor batch at a time) and only the newest that fit
    // maxBytes are held: a replay never holds more than it may send.
    const within = new NewestWithin(q.maxBytes);
    let latest: Found | undefined;
    const filter = after === undefined ? { topics: topic } : { topics: topic, _id: { $gte: after.batch } };
    for await (const batch of log.batches.find(filter, { batchSize: batchesPerFetch })) {
      for (const { event: e, pos } of found(batch)) {
        if (e.topic !== topic || !replayed.has(e.kind) || e.time < fromTime || pos <= (after?.pos ?? 0)) continue;
        const message = { id: e.id, time: e.time, json: e.json, pos, ...(e.attachment ? { attachment: e.attachment } : {}) };
        // Expired, or trimmed (max-messages): dropped.
        if (e.expires <= now || byTimeThenPosition(message, floor) <= 0) {
          gap ||= reaches && e.expires !== 0;
          continue;
        }
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
    const live = q.livePosition === undefined ? undefined : positionIn(q.livePosition, this.shards.index(topic));
    const json = kept.map((m) => (dropped.has(m.id) ? withoutAttachment(m.json) : m.json));
    return {
      json,
      bytes: json.reduce((sum, j) => sum + Buffer.byteLength(j), 0),
      truncated: within.truncated,
      maybeLive: live === undefined ? [] : kept.filter((m) => m.pos > live).map((m) => m.id),
      gap,
    };
  }

  /** The time of message `id` in a log other than `own`; undefined when none holds it. */
  private async timeElsewhere(id: string, own: MessageLog): Promise<number | undefined> {
    for (const log of this.shards.logs) {
      const batch = log === own ? null : await log.batches.findOne({ ids: id });
      const hit = batch?.events.find((e) => e.id === id);
      if (hit) return hit.time;
    }
    return undefined;
  }

  /** Scheduled messages of `topic` still waiting: not expired, and not claimed by a release or a replacement. */
  private async waiting(topic: string, now: number, fromTime: number): Promise<Found[]> {
    const candidates = (await this.scheduled.inTopic(topic)).filter((w) => w.expires > now && w.time >= fromTime);
    if (candidates.length === 0) return [];
    // A claim whose process died before it removed the waiting copy still counts.
    const claimed = await this.claims.among(candidates.map((w) => w._id));
    return candidates.filter((w) => !claimed.has(w._id)).map((w) => ({ ...w, id: w._id }));
  }
}

/**
 * The position of message `id` in `log`, its event and the batch holding it: of its release if it was
 * released, else of its commit; undefined when the log does not hold it. Both are
 * equality lookups (`claim`, `ids`), each matching a batch or two.
 */
async function positionOf(log: MessageLog, id: string): Promise<{ pos: number; batch: number; event: LogEvent } | undefined> {
  const [claimed, held] = await Promise.all([log.batches.findOne({ claim: id }), log.batches.find({ ids: id }).toArray()]);
  for (const batch of [claimed, ...held.sort((a, b) => b._id - a._id)]) {
    const hit = batch && found(batch).find(({ event }) => event.id === id);
    if (hit) return { ...hit, batch: batch._id };
  }
  return undefined;
}

/** Each event of `batch` with its position. */
export function found(batch: LogBatch): { event: LogEvent; pos: number }[] {
  return batch.events.map((event, i) => ({ event, pos: batch._id + i }));
}

function withoutAttachment(json: string): string {
  return messageJson({ ...(JSON.parse(json) as Message), attachment: undefined });
}
