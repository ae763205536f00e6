/**
 * Reconnect delays: 1 s after the first failure, doubling up to 60 s; a connection that
 * the server accepted starts over at 1 s. (ntfy's CLI waits a flat 10 s.)
 */
export class Backoff {
  private failures = 0;

  constructor(
    private readonly firstMs = 1000,
    private readonly maxMs = 60_000,
  ) {}

  /** The delay before the next attempt, counting this failure. */
  next(): number {
    const delay = Math.min(this.firstMs * 2 ** this.failures, this.maxMs);
    this.failures++;
    return delay;
  }

  reset(): void {
    this.failures = 0;
  }
}
