import type pg from 'pg';

/** How long a replica that failed a read is passed over: a stopped one would cost every replay a connection attempt. */
const restMs = 5_000;

/**
 * The read replicas of `database-replica-urls` (ntfy 2.19), taken in turn; one that failed
 * a read rests a moment, its reads going to the primary meanwhile.
 */
export class Replicas {
  private next = 0;
  private readonly failedAt = new Map<pg.Pool, number>();

  constructor(readonly pools: readonly pg.Pool[]) {}

  /** The replica to read from, or none (none given, or every one resting). */
  pick(): pg.Pool | undefined {
    for (let tried = 0; tried < this.pools.length; tried++) {
      const pool = this.pools[this.next++ % this.pools.length] as pg.Pool;
      if (performance.now() - (this.failedAt.get(pool) ?? -Infinity) >= restMs) return pool;
    }
    return undefined;
  }

  failed(pool: pg.Pool): void {
    this.failedAt.set(pool, performance.now());
  }

  async close(): Promise<void> {
    await Promise.all(this.pools.map((pool) => pool.end()));
  }
}
