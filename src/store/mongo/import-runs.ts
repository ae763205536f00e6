import type { LogEvent } from './message-log.js';

/** The events without a repeated id (an import's source may hold one twice), the first kept. */
export function firstOfEachId(events: LogEvent[]): LogEvent[] {
  const seen = new Set<string>();
  return events.filter((e) => !seen.has(e.id) && seen.add(e.id));
}

/**
 * FerretDB 1.24 keeps a batch's whole `topics` array in one PostgreSQL index row, which
 * may not exceed 2,704 bytes (measured: an import batch of 1,000 topics was refused), so
 * an import is split into runs of events, in order, whose topic names add up to at most
 * this many bytes. MongoDB indexes each element apart and would take any batch.
 */
const topicBytesPerBatch = 1024;

/** `events` cut, in order, into runs whose distinct topics fit one index row. */
export function fewTopics(events: readonly LogEvent[]): LogEvent[][] {
  const runs: LogEvent[][] = [];
  let run: LogEvent[] = [];
  let topics = new Set<string>();
  let bytes = 0;
  for (const e of events) {
    if (!topics.has(e.topic)) {
      if (bytes + e.topic.length > topicBytesPerBatch && run.length > 0) {
        runs.push(run);
        [run, topics, bytes] = [[], new Set(), 0];
      }
      topics.add(e.topic);
      bytes += e.topic.length;
    }
    run.push(e);
  }
  if (run.length > 0) runs.push(run);
  return runs;
}
