/**
 * One token bucket: at most `burst` tokens, refilled continuously at one per `replenishMs`.
 * The shape is passed on each take, so a visitor whose tier changes keeps its balance.
 */
export class Bucket {
  constructor(
    private tokens: number,
    private at: number,
  ) {}

  /** Takes `n` tokens if that many are left; else takes none and answers false (Go's rate.Limiter.AllowN). */
  take(n: number, now: number, burst: number, replenishMs: number): boolean {
    if (this.left(now, burst, replenishMs) < n) return false;
    this.tokens -= n;
    return true;
  }

  left(now: number, burst: number, replenishMs: number): number {
    this.tokens = Math.min(burst, this.tokens + (now - this.at) / replenishMs);
    this.at = now;
    return this.tokens;
  }
}
