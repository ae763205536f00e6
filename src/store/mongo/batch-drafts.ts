import type { BatchDraft, LogEvent } from './message-log.js';

/**
 * FerretDB 1.24 keeps a batch's whole `topics` array in one PostgreSQL index row, and its
 * whole `ids` array in another, and a row may not exceed 2,704 bytes (measured: an import
 * batch of 1,000 topics was refused, and so was one commit of 400 random ids, 6,416
 * bytes: 4 bytes beside each string, and random ids do not compress). So a batch's distinct
 * topic names, and its ids, each add up to at most this many bytes, counting those 4:
 * 128 ids of 12 characters. MongoDB indexes each element apart and would take any number.
 */
const indexedBytesPerBatch = 2048;
const elementOverhead = 4;

/**
 * The most a batch's events may weigh, estimated from their strings: far below MongoDB's
 * 16 MB document limit (a group commit under load gathers thousands of messages of up to
 * ~5 KB), and small enough that every node's tail reads a commit in pieces of a few
 * milliseconds each.
 */
const bytesPerBatch = 2 << 20;

/** Room for a logged event's fields and their names, beside its strings. */
const eventOverhead = 128;

/**
 * `events` as the drafts of consecutive log batches, in order, each within the limits
 * above (one batch unless a limit is reached; none for no events).
 */
export function batchDrafts(events: readonly LogEvent[]): Omit<BatchDraft, 'claim'>[] {
  const runs: LogEvent[][] = [];
  let run: LogEvent[] = [];
  let topics = new Set<string>();
  let topicBytes = 0;
  let idBytes = 0;
  let bytes = 0;
  for (const e of events) {
    const topicSize = topics.has(e.topic) ? 0 : Buffer.byteLength(e.topic) + elementOverhead;
    const idSize = Buffer.byteLength(e.id) + elementOverhead;
    const size = Buffer.byteLength(e.json) + e.topic.length + e.id.length + (e.sid?.length ?? 0) + eventOverhead;
    const full = topicBytes + topicSize > indexedBytesPerBatch || idBytes + idSize > indexedBytesPerBatch || bytes + size > bytesPerBatch;
    if (full && run.length > 0) {
      runs.push(run);
      [run, topics, topicBytes, idBytes, bytes] = [[], new Set(), 0, 0, 0];
    }
    if (!topics.has(e.topic)) {
      topics.add(e.topic);
      topicBytes += Buffer.byteLength(e.topic) + elementOverhead;
    }
    idBytes += idSize;
    bytes += size;
    run.push(e);
  }
  if (run.length > 0) runs.push(run);
  return runs.map((r) => ({ ...listed(r), events: r }));
}

/** A batch's lookup fields: its topics and ids (omitted when empty). */
function listed(events: readonly LogEvent[]): { topics?: string[]; ids?: string[] } {
  if (events.length === 0) return {};
  return { topics: [...new Set(events.map((e) => e.topic))], ids: events.map((e) => e.id) };
}
