import type { LogBatch } from './message-log.js';

type Handed = Pick<LogBatch, '_id' | 'last' | 'by'>;

/**
 * The last batches a tail handed on, with their identities, for the rare walk back after a
 * failover rewrote the chain behind the tail: the newest of them still in the log as it
 * was handed on marks where what subscribers got and what the log holds part.
 */
export class HandedBatches {
  /** By first position, oldest first. */
  private readonly kept = new Map<number, Handed>();

  constructor(private readonly capacity: number) {}

  add({ _id, last, by }: Handed): void {
    this.kept.set(_id, { _id, last, by });
    for (const first of this.kept.keys()) {
      if (this.kept.size <= this.capacity) break;
      this.kept.delete(first);
    }
  }

  /** Newest first. */
  newestFirst(): Handed[] {
    return [...this.kept.values()].reverse();
  }
}
