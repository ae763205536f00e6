import { ConfigError } from '../config/load.js';
import type { Config } from '../config/schema.js';
import type { AttachmentStore } from './attachment-store.js';
import type { AuthStore } from './auth-store.js';
import type { SpendLedger } from './spend-ledger.js';
import type { Store } from './store.js';
import type { WebPushStore } from './webpush-store.js';
import type { MonitorStore } from './monitor-store.js';
import type { PeerStore } from './peer-store.js';
import type { MongoObserver } from './mongo/open.js';
import type { StoreLog } from './store-reports.js';

/** What the stores report as they go (the metrics): the MongoDB ones all of it, the PostgreSQL ones their pool's waits; the embedded ones nothing. */
export type StoreObserver = MongoObserver;

/**
 * The one place a backend is chosen, from database-url: unset opens the embedded one
 * (embedded.ts), `mongodb://` or `mongodb+srv://` the MongoDB one (mongo/open.ts),
 * `postgres://` or `postgresql://` the PostgreSQL one (postgres/open.ts), each shared by
 * every node on that database; any other value stops startup rather than quietly
 * falling back to the files. Nothing outside src/store imports an implementation: the
 * server and the CLI get the ports from here. Each backend is imported when chosen: the
 * drivers of the others (mongodb, pg, and their Agenda backends) cost a server on the
 * embedded store a second of startup and tens of MB it would never use.
 */
export interface Stores extends Store {
  /** The topics the cache held when opened (its first read, so a corrupt cache fails the opening). */
  knownTopics: Set<string>;
  /** Undefined without auth-file: access control is off. */
  auth: AuthStore | undefined;
  /** Undefined without attachment-cache-dir: uploads are refused. */
  attachments: AttachmentStore | undefined;
  /** Undefined without web-push-public-key: Web Push is off. */
  webPush: WebPushStore | undefined;
  /** Undefined without monitor-file; only the embedded backend keeps monitors (the config refuses the others). */
  monitors?: MonitorStore;
  /** The logs the nodes announce their commits to each other for (cluster/); only a MongoDB store's. */
  peers?: PeerStore;
  /** How nodes sharing the store share visitor limits; undefined for a store that serves one node. */
  ledger?: SpendLedger;
  /**
   * One trivial round trip to the database the cache lives in (SQLite: a read of its
   * schema; PostgreSQL: `SELECT 1`; MongoDB: `ping`), for ntfy_db_ping_seconds; rejects as
   * the database fails. Never queued behind the store's own work beyond what the driver does.
   */
  ping(): Promise<void>;
  /** Closes every store opened; the caller has stopped using them. */
  close(): Promise<void>;
}

/** Opens every store of `tocsin serve`; a store that cannot open throws a ConfigError naming it. */
export async function openStores(config: Config, log: StoreLog, observer?: StoreObserver): Promise<Stores> {
  switch (backendOf(config.databaseUrl)) {
    case 'mongodb':
      return (await import('./mongo/open.js')).openMongo(config, log, observer);
    case 'postgres':
      return (await import('./postgres/open.js')).openPostgres(config, log, observer);
    case 'embedded':
      return (await import('./embedded.js')).openEmbedded(config);
  }
}

/**
 * The auth store alone, for the admin commands (`user`, `access`, `token`, `tier`), which
 * open it on first use, after their arguments were checked.
 */
export async function openAuthStore(config: Config): Promise<AuthStore> {
  switch (backendOf(config.databaseUrl)) {
    case 'mongodb':
      return (await import('./mongo/open.js')).openMongoAuth(config);
    case 'postgres':
      return (await import('./postgres/open.js')).openPostgresAuth(config);
    case 'embedded':
      return (await import('./embedded.js')).openExistingAuthFile(config);
  }
}

/** The backend `database-url` names: unset the embedded one; a scheme no backend handles stops the start. */
function backendOf(url: string): 'embedded' | 'mongodb' | 'postgres' {
  if (url === '') return 'embedded';
  const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(url)?.[0].toLowerCase();
  if (scheme === 'mongodb:' || scheme === 'mongodb+srv:') return 'mongodb';
  if (scheme === 'postgres:' || scheme === 'postgresql:') return 'postgres';
  const what = scheme ? `unsupported scheme "${scheme}"` : `${JSON.stringify(url)} is not a URL`;
  throw new ConfigError(`database-url: ${what} (use mongodb://, mongodb+srv://, postgres:// or postgresql://, or leave it unset to keep the stores in cache-file, auth-file and attachment-cache-dir)`);
}
