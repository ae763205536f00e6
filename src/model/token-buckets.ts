import type { RateLimit } from '../config/schema.js';

interface Bucket {
  tokens: number;
  /** When `tokens` was last brought up to date, in ms. */
  at: number;
}

/**
 * One token bucket per key (a visitor's address): `burst` tokens at first, one more every
 * `replenishMs`. Only keys that spent something are held, and a bucket that has filled
 * up again is the same as none, so those are dropped whenever the map grows past
 * `maxKeys` (and the oldest key after them if that is not enough): a flood of distinct
 * addresses cannot grow memory without bound.
 */
export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly limit: RateLimit,
    private readonly maxKeys = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether `key` has a token left, without spending it. */
  allows(key: string): boolean {
    return this.tokens(key) >= 1;
  }

  /** Spends a token of `key`; false (and nothing spent) when none is left. */
  take(key: string): boolean {
    const tokens = this.tokens(key);
    if (tokens < 1) return false;
    if (this.buckets.size >= this.maxKeys && !this.buckets.has(key)) this.dropFull();
    this.buckets.set(key, { tokens: tokens - 1, at: this.now() });
    return true;
  }

  /** How many keys are held (for tests and stats). */
  get size(): number {
    return this.buckets.size;
  }

  private tokens(key: string): number {
    const bucket = this.buckets.get(key);
    if (!bucket) return this.limit.burst;
    const refilled = bucket.tokens + (this.now() - bucket.at) / this.limit.replenishMs;
    return Math.min(this.limit.burst, refilled);
  }

  private dropFull(): void {
    for (const key of this.buckets.keys()) {
      if (this.tokens(key) >= this.limit.burst) this.buckets.delete(key);
    }
    // Under a flood nothing may have refilled: forgive the oldest key rather than grow.
    const oldest = this.buckets.keys().next();
    if (this.buckets.size >= this.maxKeys && !oldest.done) this.buckets.delete(oldest.value);
  }
}
