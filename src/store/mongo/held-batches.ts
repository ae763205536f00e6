import type { LogBatch } from './message-log.js';

/**
 * Batches a process holds for its tail, by position, so that the tail need not read them
 * back from the log (on FerretDB 1.24 every lookup is a scan of the log's table): those it
 * appended, those an insert found in its way, and those its peers announced (cluster/).
 * Bounded in count and in bytes of message JSON: past either, the lowest positions go
 * first, and a tail far behind reads them from the log. A reader may wait a little for a
 * position a peer has yet to announce (`waitFor`).
 */
export class HeldBatches {
  private readonly byPosition = new Map<number, LogBatch>();
  private bytes = 0;
  private readonly waiters = new Map<number, Set<(batch: LogBatch | undefined) => void>>();

  constructor(
    private readonly maxCount: number,
    private readonly maxBytes: number,
  ) {}

  get(position: number): LogBatch | undefined {
    return this.byPosition.get(position);
  }

  /** Holds `batch` (replacing one held at its position) and hands it to whoever waits for it. */
  put(batch: LogBatch): void {
    this.drop(batch._id);
    this.byPosition.set(batch._id, batch);
    this.bytes += sizeOf(batch);
    while (this.byPosition.size > this.maxCount || (this.bytes > this.maxBytes && this.byPosition.size > 1)) this.drop(Math.min(...this.byPosition.keys()));
    const waiting = this.waiters.get(batch._id);
    if (!waiting) return;
    this.waiters.delete(batch._id);
    for (const resolve of waiting) resolve(batch);
  }

  /** Removes and answers the batch at `position`. */
  take(position: number): LogBatch | undefined {
    const batch = this.byPosition.get(position);
    if (batch) this.drop(position);
    return batch;
  }

  /** Forgets every batch at or below `position` (the tail read them). */
  dropThrough(position: number): void {
    for (const held of this.byPosition.keys()) if (held <= position) this.drop(held);
  }

  /** The batch at `position` once it is held, or undefined after `ms` without it. */
  waitFor(position: number, ms: number): Promise<LogBatch | undefined> {
    const held = this.byPosition.get(position);
    if (held) return Promise.resolve(held);
    return new Promise((resolve) => {
      const waiting = this.waiters.get(position) ?? new Set();
      this.waiters.set(position, waiting);
      const done = (batch: LogBatch | undefined): void => {
        clearTimeout(timer);
        resolve(batch);
      };
      const timer = setTimeout(() => {
        waiting.delete(done);
        if (waiting.size === 0 && this.waiters.get(position) === waiting) this.waiters.delete(position);
        resolve(undefined);
      }, ms);
      waiting.add(done);
    });
  }

  private drop(position: number): void {
    const batch = this.byPosition.get(position);
    if (!batch) return;
    this.byPosition.delete(position);
    this.bytes -= sizeOf(batch);
  }
}

/** What a batch holds in memory, near enough: its events' JSON. */
function sizeOf(batch: LogBatch): number {
  let bytes = 64;
  for (const event of batch.events) bytes += event.json.length + 64;
  return bytes;
}
