import type { RateLimit } from '../config/schema.js';
import { LruMap } from './lru-map.js';

interface Bucket {
  tokens: number;
  /** When `tokens` was last brought up to date, in ms. */
  at: number;
}

/**
 * Keys held before the least recently spending are forgiven: ~315 bytes each (heap after
 * GC with 100,000 IPv6 /64 keys), so ~32 MB at most.
 */
export const defaultMaxKeys = 100_000;

/**
 * One token bucket per key (a visitor's address or network): `burst` tokens at first, one
 * more every `replenishMs`. Only keys that spent something are held, at most `maxKeys`,
 * the least recently spending dropped first in batches (O(1) per call whatever the keys).
 *
 * A dropped bucket is forgiven: its key starts again with a full burst. It is dropped only
 * once at least 5/8 of `maxKeys` other keys were seen after it last was (see LruMap),
 * each with a full burst of its own, so dropping gives a key no more than every key of
 * the flood that caused it has.
 * The buckets this serves guard bcrypt checks and sign-ups, each ~60 ms of CPU, so a
 * flood cycling through more than `maxKeys` networks is bound by the server's CPU long
 * before by these buckets.
 */
export class TokenBuckets {
  private readonly buckets: LruMap<string, Bucket>;
  private readonly now: () => number;
  private readonly keyOf: (address: string) => string;

  constructor(
    private readonly limit: RateLimit,
    options: {
      maxKeys?: number;
      now?: () => number;
      /** The key an address counts under: its visitor network (an IPv6 /64), as ntfy's per-visitor limiters. */
      keyOf?: (address: string) => string;
    } = {},
  ) {
    this.now = options.now ?? Date.now;
    this.keyOf = options.keyOf ?? ((address) => address);
    this.buckets = new LruMap(options.maxKeys ?? defaultMaxKeys, { now: this.now });
  }

  /** Whether `address` has a token left, without spending it. */
  allows(address: string): boolean {
    return this.tokens(this.keyOf(address)) >= 1;
  }

  /** Spends a token of `address`; false (and nothing spent) when none is left. */
  take(address: string): boolean {
    const key = this.keyOf(address);
    const tokens = this.tokens(key);
    if (tokens < 1) return false;
    this.buckets.set(key, { tokens: tokens - 1, at: this.now() });
    return true;
  }

  /** Housekeeping: drops buckets that have filled up again (the same as none), visiting only those. */
  forget(): void {
    const full = this.now() - this.limit.burst * this.limit.replenishMs;
    this.buckets.expire(full, (b) => b.at <= full);
  }

  /** How many keys are held (for tests and stats). */
  get size(): number {
    return this.buckets.size;
  }

  /** Entries touched by evictions and housekeeping (for tests). */
  get work(): number {
    return this.buckets.work;
  }

  private tokens(key: string): number {
    // A lookup marks the bucket used: a key still knocking while empty stays held.
    const bucket = this.buckets.get(key);
    if (!bucket) return this.limit.burst;
    const refilled = bucket.tokens + (this.now() - bucket.at) / this.limit.replenishMs;
    return Math.min(this.limit.burst, refilled);
  }
}
