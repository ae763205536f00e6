/**
 * At most one write of a kind per `ms` (log-heads.ts, held-tallies.ts): when the next may
 * begin, and the one timer of a write put off until then.
 */
export class WriteSpacing {
  private lastBegan = -Infinity;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly ms: number) {}

  /** A write is put off, its timer running. */
  get waiting(): boolean {
    return this.timer !== undefined;
  }

  /** Milliseconds until the next write may begin (0: now). */
  wait(): number {
    return Math.max(0, this.lastBegan + this.ms - performance.now());
  }

  /** Runs `write` once `wait()` has passed, on a timer that keeps no process alive. */
  putOff(write: () => void): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      write();
    }, this.wait()).unref();
  }

  /** A write begins now. */
  began(): void {
    this.lastBegan = performance.now();
  }

  /** Drops the write put off (its caller writes now instead). */
  cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
