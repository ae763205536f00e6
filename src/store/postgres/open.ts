import { ConfigError } from '../../config/load.js';
import type { Config } from '../../config/schema.js';
import type { AuthStore } from '../auth-store.js';
import type { Stores } from '../index.js';
import type { PoolObserver, StoreLog } from '../store-reports.js';
import { redacted } from '../database-url.js';
import { openAttachments } from '../attachment-choice.js';
import { PostgresFileIndex } from './attachment-index.js';
import { PostgresAttachments } from './attachments.js';
import { PostgresAuthStore } from './auth/store.js';
import { openPool } from './pool.js';
import { Replicas } from './replicas.js';
import { openSchema } from './schema.js';
import { PostgresSpendLedger } from './spend-ledger.js';
import { openPostgresMessageStore } from './store.js';
import { PostgresWebPushStore } from './webpush-store.js';

/**
 * Every store on the PostgreSQL database of `database-url` (`postgres://` or
 * `postgresql://`), shared with every node on it, on one pool (as ntfy 2.18): the message
 * cache and its live feed, the jobs, access control, the attachments (in the database,
 * or an S3 bucket indexed in attachment_files; when attachment-cache-dir is set, as the
 * embedded ones), the browsers' push subscriptions
 * (when web push is on) and the ledger of visitor limits. Access control is always on, as
 * with MongoDB (and ntfy's `database-url`): auth-default-access decides what anyone
 * without credentials may do. Replays and polls may read from the read replicas of
 * database-replica-urls (replays.ts).
 */
export async function openPostgres(config: Config, log: StoreLog, observer?: PoolObserver): Promise<Stores> {
  const pool = openPool(config.databaseUrl, (err) => log.warn({ err }, 'database: an idle connection broke; the next query opens another'), observer);
  const replicas = new Replicas(config.databaseReplicaUrls.map((url) => openPool(url, (err) => log.warn({ err }, 'database: an idle connection to a read replica broke'))));
  const closers: (() => Promise<void>)[] = [() => replicas.close()];
  const closeAll = async (): Promise<void> => {
    for (const close of closers.reverse()) await close();
    await pool.end();
  };
  try {
    const logs = await openSchema(pool, config.databaseShards);
    const messages = await openPostgresMessageStore(pool, {
      onError: (err) => log.error({ err }, 'live feed: a read of the log or its listening connection failed; reading again'),
      checkMs: 1000,
      retryMs: 100,
    }, (err) => log.warn({ err }, 'jobs: their listening connection failed; it listens again'), { logs, replicas });
    closers.push(() => messages.close());
    const auth = new PostgresAuthStore(pool);
    closers.push(() => auth.close());
    const attachments = await openAttachments(config, () => PostgresAttachments.open(pool), () => new PostgresFileIndex(pool));
    if (attachments) closers.push(() => attachments.close());
    const webPush = config.webPush ? new PostgresWebPushStore(pool) : undefined;
    const ledger = new PostgresSpendLedger(pool);
    const knownTopics = await messages.cache.topics();
    const ping = async (): Promise<void> => void (await pool.query('SELECT 1'));
    return { ...messages, knownTopics, auth, attachments, webPush, ledger, ping, close: closeAll };
  } catch (err) {
    await closeAll().catch(() => undefined);
    throw new ConfigError(`database-url ${redacted(config.databaseUrl)}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** Access control alone, for the admin commands: the store and its pool close together. */
export async function openPostgresAuth(config: Config): Promise<AuthStore> {
  const pool = openPool(config.databaseUrl);
  try {
    await openSchema(pool);
    return new PostgresAuthStore(pool, pool);
  } catch (err) {
    await pool.end();
    throw new ConfigError(`database-url ${redacted(config.databaseUrl)}: ${err instanceof Error ? err.message : String(err)}`);
  }
}
