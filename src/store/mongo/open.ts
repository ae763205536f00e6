import { MongoClient, type ConnectionCheckedOutEvent, type ConnectionCheckOutFailedEvent } from 'mongodb';
import { ConfigError } from '../../config/load.js';
import type { Config } from '../../config/schema.js';
import type { AuthStore } from '../auth-store.js';
import { redacted } from '../database-url.js';
import type { Stores } from '../index.js';
import type { PoolObserver, StoreLog } from '../store-reports.js';
import { clientOptions } from './concerns.js';
import { MongoAuthStore } from './auth/store.js';
import { openAttachments } from '../attachment-choice.js';
import { MongoFileIndex } from './attachment-index.js';
import { GridFsAttachments } from './gridfs-attachments.js';
import { openMongoJobs } from './job-repository.js';
import { openMongoMessageStore, type LogObserver } from './message-store.js';
import { MongoSpendLedger } from './spend-ledger.js';
import { MongoWebPushStore } from './webpush-store.js';
import { MongoReceiptStore } from './receipt-store.js';

interface Closable {
  close(): Promise<void>;
}


/** What the MongoDB stores report as they go: the pool's waits, the log's retries and the tail's lag. */
export type MongoObserver = PoolObserver & LogObserver;

/**
 * Every store on the MongoDB of `database-url`, shared with every node on it: the
 * message log and its live feed, the jobs, access control, the attachments (GridFS, or an
 * S3 bucket indexed in `s3_attachments`; on when attachment-cache-dir is set, as the embedded ones), the browsers' push
 * subscriptions (when web push is on; web-push-file is not used) and the ledger of visitor
 * limits. The database is the one the URL names (`mongodb://host/tocsin`). Access control
 * is always on: the users live in the database, and auth-default-access decides what
 * anyone without credentials may do (read-write by default, as a server without auth).
 */
export async function openMongo(config: Config, log: StoreLog, observer?: MongoObserver): Promise<Stores> {
  const client = await connect(config.databaseUrl, observer);
  const opened: Closable[] = [];
  const closeAll = async (): Promise<void> => {
    for (const store of opened.reverse()) await store.close();
    await client.close();
  };
  try {
    const db = client.db();
    const messages = await openMongoMessageStore(db, { capBytes: config.cacheSizeLimit, shards: config.databaseShards, log, observer });
    opened.push(messages);
    const jobs = openMongoJobs(db);
    opened.push(jobs);
    const auth = await MongoAuthStore.open(db);
    opened.push(auth);
    const attachments = await openAttachments(config, () => GridFsAttachments.open(db), () => MongoFileIndex.open(db, 's3_attachments'));
    if (attachments) opened.push(attachments);
    const webPush = config.webPush ? await MongoWebPushStore.open(db) : undefined;
    const ledger = await MongoSpendLedger.open(db);
    const receipts = await MongoReceiptStore.open(db);
    const knownTopics = await messages.cache.topics();
    const ping = async (): Promise<void> => void (await db.command({ ping: 1 }));
    return { cache: messages.cache, feed: messages.feed, peers: messages.peers, jobs, receipts, knownTopics, auth, attachments, webPush, ledger, ping, close: closeAll };
  } catch (err) {
    await closeAll().catch(() => undefined);
    throw new ConfigError(`database-url ${redacted(config.databaseUrl)}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** Access control alone, for the admin commands: the store and its client close together. */
export async function openMongoAuth(config: Config): Promise<AuthStore> {
  const client = await connect(config.databaseUrl);
  try {
    return await MongoAuthStore.open(client.db(), client);
  } catch (err) {
    await client.close();
    throw new ConfigError(`database-url ${redacted(config.databaseUrl)}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/**
 * Connects within 10 s, or stops the start with the reason (the password left out), with
 * the write and read concerns and timeouts of concerns.ts. A node needs few connections
 * (one commit at a time, one tail, a few polls): at most 10 unless the URL says otherwise;
 * FerretDB 1.24 stopped answering under the driver's default of 100 per node. The pool's
 * check-outs go to `observer` from the first (it listens before the client connects, so
 * every check-out it hears of starts and ends there).
 */
async function connect(url: string, observer?: PoolObserver): Promise<MongoClient> {
  const pool = /[?&]maxPoolSize=/i.test(url) ? {} : { maxPoolSize: 10 };
  try {
    const client = new MongoClient(url, { serverSelectionTimeoutMS: 10_000, appName: 'tocsin', ...pool, ...clientOptions(url) });
    if (observer) {
      const ended = (event: ConnectionCheckedOutEvent | ConnectionCheckOutFailedEvent): void => observer.checkOutEnded(event.durationMS / 1000);
      client.on('connectionCheckOutStarted', () => observer.checkOutStarted());
      client.on('connectionCheckedOut', ended);
      client.on('connectionCheckOutFailed', ended);
    }
    return await client.connect();
  } catch (err) {
    throw new ConfigError(`database-url ${redacted(url)}: cannot connect: ${err instanceof Error ? err.message : String(err)}`);
  }
}
