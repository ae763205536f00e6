import pg from 'pg';
import type { PoolObserver } from '../store-reports.js';
import { unanswered } from './errors.js';

/** int8 (count(*), positions, times) as numbers: every value the store keeps is below 2^53. */
const int8 = 20;
const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => (oid === int8 ? Number : pg.types.getTypeParser(oid, format))) as pg.CustomTypesConfig['getTypeParser'],
};

/**
 * What every connection of the store is opened with, pooled or not (the feed's listener).
 * A stuck server is bounded as on MongoDB (mongo/concerns.ts): a query unanswered for
 * 10 s fails (a publish then answers 503/50301 instead of holding every later commit),
 * and so does a connection not made within 5 s.
 */
export const poolOptions = { types, query_timeout: 10_000, connectionTimeoutMillis: 5_000 } as const;

/**
 * A pool of connections to the database at `url` (`postgres://` or `postgresql://`,
 * libpq's parameters). An idle connection that breaks (the server restarted, the network
 * cut it) is dropped by the pool and reported to `idleError`; the next query opens another.
 * Without a listener, node-postgres would throw that error out of the process. Check-outs
 * (every query's too) are timed for `observer`.
 */
export function openPool(url: string, idleError: (err: Error) => void = () => undefined, observer?: PoolObserver): pg.Pool {
  const config = { connectionString: url, max: 10, ...poolOptions };
  const pool = observer ? new TimedPool(config, observer) : new pg.Pool(config);
  pool.on('error', idleError);
  return pool;
}

type Checkout = (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void;

/**
 * A pool whose check-outs are timed, as the MongoDB driver's events time its own: pg-pool
 * has no event for a check-out's start, and its `query` checks out through `connect`
 * (with a callback), so timing `connect` times every query.
 */
class TimedPool extends pg.Pool {
  constructor(
    config: pg.PoolConfig,
    private readonly observer: PoolObserver,
  ) {
    super(config);
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(callback: Checkout): void;
  override connect(callback?: Checkout): Promise<pg.PoolClient> | void {
    this.observer.checkOutStarted();
    const started = performance.now();
    const ended = (): void => this.observer.checkOutEnded((performance.now() - started) / 1000);
    if (!callback) return super.connect().finally(ended);
    super.connect((err, client, done) => {
      ended();
      callback(err, client, done);
    });
  }
}

/**
 * Runs `work` in a transaction (`begin`: its BEGIN statement) on one pooled connection:
 * committed if it resolves, rolled back if it throws.
 */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>, begin = 'BEGIN'): Promise<T> {
  const client = await pool.connect();
  let lost: Error | undefined;
  try {
    await client.query(begin);
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    // A connection that did not answer is dropped (released with its error), not asked to
    // roll back: it would wait as long again, and the server rolls back what it loses.
    if (unanswered(err)) lost = err as Error;
    else await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release(lost);
  }
}
