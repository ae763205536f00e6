import pg from 'pg';
import type { PoolObserver } from '../store-reports.js';
import { unanswered } from './errors.js';
import { HostRouter, parseHostList } from './hosts.js';

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
 * libpq's parameters and host lists: hosts.ts). An idle connection that breaks (the server
 * restarted, the network cut it) is dropped by the pool and reported to `idleError`; the
 * next query opens another. Without a listener, node-postgres would throw that error out
 * of the process. Check-outs (every query's too) are timed for `observer`.
 */
export function openPool(url: string, idleError: (err: Error) => void = () => undefined, observer?: PoolObserver): StorePool {
  const pool = new StorePool(new HostRouter(parseHostList(url)), observer);
  pool.on('error', idleError);
  return pool;
}

type Checkout = (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: unknown) => void) => void;

/**
 * The store's pool: its connections go to the server of the host list that takes writes
 * (HostRouter), and a check-out that found a server down or read-only tries the next
 * before it fails, so a promoted standby serves the next query after a failover. Check-outs
 * are timed, as the MongoDB driver's events time its own: pg-pool has no event for a
 * check-out's start, and its `query` checks out through `connect` (with a callback), so
 * timing `connect` times every query.
 */
export class StorePool extends pg.Pool {
  private readonly routed: typeof pg.Client;

  constructor(
    private readonly router: HostRouter,
    private readonly observer?: PoolObserver,
  ) {
    const routed = routedClient(router);
    super({
      max: 10,
      ...poolOptions,
      Client: routed as unknown as pg.PoolConfig['Client'],
      onConnect: (client) => router.check(client as pg.Client),
    } as pg.PoolConfig);
    this.routed = routed;
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(callback: Checkout): void;
  override connect(callback?: Checkout): Promise<pg.PoolClient> | void {
    if (!callback) return new Promise((resolve, reject) => this.connect((err, client) => (err || !client ? reject(err) : resolve(client))));
    this.observer?.checkOutStarted();
    const started = performance.now();
    const attempt = (left: number): void => {
      const failures = this.router.failures;
      super.connect((err, client, done) => {
        // A server of the list failed this connection: the next one may take it.
        if (err && left > 1 && this.router.failures > failures) return attempt(left - 1);
        this.observer?.checkOutEnded((performance.now() - started) / 1000);
        callback(err, client, done);
      });
    };
    attempt(this.router.size);
  }

  /** A connection of its own (the live feed's listener), to the server the pool's go to. */
  async dedicated(): Promise<pg.Client> {
    for (let left = this.router.size; ; left--) {
      const client = new this.routed(poolOptions);
      try {
        await client.connect();
        await this.router.check(client);
        return client;
      } catch (err) {
        await client.end().catch(() => undefined);
        if (left <= 1) throw err;
      }
    }
  }
}

/** node-postgres's client, connecting to the router's current server; a failed connect moves the router on. */
function routedClient(router: HostRouter): typeof pg.Client {
  return class RoutedClient extends pg.Client {
    constructor(config: pg.ClientConfig) {
      super(router.config(config));
    }

    override connect(): Promise<pg.Client>;
    override connect(callback: (err: Error) => void): void;
    override connect(callback?: (err: Error) => void): Promise<pg.Client> | void {
      if (!callback)
        return super.connect().catch((err: unknown) => {
          router.failed(this);
          throw err;
        });
      super.connect((err: Error) => {
        if (err) router.failed(this);
        callback(err);
      });
    }
  };
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
