import type { LogBatch } from './message-log.js';

/**
 * The identities of the last batches a tail handed on, by position, to tell a repeat (the
 * same batch read again: FerretDB rewinds a cursor) from a different batch at a position
 * already handed on. The latter means the batch handed on was rolled back by a failover
 * and another took its position: its events and the new batch's reached no subscriber
 * through this tail as they are in the log now.
 */
export class DeliveredBatches {
  /** Identity by first position, oldest first. */
  private readonly kept = new Map<number, string>();

  constructor(private readonly capacity: number) {}

  add(batch: LogBatch): void {
    this.kept.set(batch._id, batch.by ?? '');
    for (const first of this.kept.keys()) {
      if (this.kept.size <= this.capacity) break;
      this.kept.delete(first);
    }
  }

  /**
   * Whether `batch`, at positions already handed on, is one handed on: a batch older than
   * those kept counts as one (no way to tell, and a cursor rewinds at most its own reads).
   */
  has(batch: LogBatch): boolean {
    const by = this.kept.get(batch._id);
    if (by !== undefined) return by === (batch.by ?? '');
    const [oldest] = this.kept.keys();
    return oldest === undefined || batch._id < oldest;
  }
}
