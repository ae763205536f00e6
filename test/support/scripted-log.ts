import type { LogBatch } from '../../src/store/mongo/message-log.js';
import type { TailSource } from '../../src/store/mongo/message-log-tail.js';

/** A log as the tail reads it: the batches by first position, rewritable between reads. */
export class ScriptedLog implements TailSource {
  readonly batches = new Map<number, LogBatch>();

  constructor(batches: LogBatch[]) {
    this.put(...batches);
  }

  put(...batches: LogBatch[]): void {
    for (const b of batches) this.batches.set(b._id, b);
  }

  at(position: number): Promise<LogBatch | null> {
    return Promise.resolve(this.batches.get(position) ?? null);
  }

  take(position: number): Promise<LogBatch | null> {
    return this.at(position);
  }

  oldest(): Promise<LogBatch | undefined> {
    return Promise.resolve(this.sorted()[0]);
  }

  newestHint(): Promise<LogBatch | undefined> {
    return Promise.resolve(this.sorted().at(-1));
  }

  seen(_batch: LogBatch): void {}

  onAppend(): () => void {
    return () => undefined;
  }

  private sorted(): LogBatch[] {
    return [...this.batches.values()].sort((a, b) => a._id - b._id);
  }
}
