import { ConfigError } from '../../config/load.js';
import type { Config } from '../../config/schema.js';
import { nowSeconds } from '../../model/message.js';
import { openStores, type Stores } from '../../store/index.js';
import { Scheduler } from '../../streams/scheduler.js';
import { userKeyPrefix } from '../../visitors/visitors.js';
import { visitorKey } from '../../visitors/address.js';
import { Progress, type ProgressOutput } from '../progress.js';
import { Summary } from '../summary.js';
import { readNtfyAuth, type NtfyAuth } from './auth-reader.js';
import { CacheReader, type NtfyMessage } from './cache-reader.js';
import { writeAuth } from './write-auth.js';
import { writeMessages, type MessageOptions, type MessageTarget } from './write-messages.js';

/** An ntfy server's files, as its server.yml names them; any may be left out. */
export interface NtfySource {
  cacheFile?: string;
  authFile?: string;
  attachmentCacheDir?: string;
}

export interface ImportRun {
  /** Tocsin's configuration: the stores it selects are written. */
  config: Config;
  source: NtfySource;
  /** Read everything and count, write nothing (the stores are not even opened). */
  dryRun: boolean;
  /** Progress goes here (stderr in the CLI). */
  out: ProgressOutput;
  /** Messages per transaction. */
  batchSize?: number;
}

/**
 * Messages per transaction. SQLite writes each page a transaction dirtied to the WAL once,
 * and random ids dirty pages all over their index: over 1M messages, batches of 2,000
 * took 98 s to write, of 50,000 21 s (bench/import-ntfy.ts). On MongoDB a batch is one
 * log document, which must stay well below its 16 MB.
 */
const batchSizes = { embedded: 50_000, mongodb: 1000 };

/**
 * `tocsin import ntfy`: reads ntfy's files (every schema version ntfy shipped; a version
 * it does not know stops the run before anything is written) and writes them through the
 * store ports into whatever backend `config` selects. Every step skips what the target
 * holds already, so a second run adds nothing and a run after an interrupt completes the
 * first. Answers the counts.
 */
export async function importNtfy(run: ImportRun): Promise<Summary> {
  const { config, source, dryRun } = run;
  const auth = source.authFile ? readNtfyAuth(source.authFile) : undefined;
  const cache = source.cacheFile ? new CacheReader(source.cacheFile, cacheDuration(config)) : undefined;
  try {
    const summary = new Summary();
    const now = nowSeconds();
    const stores = dryRun ? undefined : await openTarget(config, auth !== undefined, cache !== undefined);
    try {
      if (auth) await writeAuth(auth, stores?.auth, summary, now);
      if (cache && stores) await copyCache(cache, stores, run, auth, summary, now);
      else if (cache) await writeMessages(undefined, messageOptions(cache, run, auth, now), summary);
    } finally {
      await stores?.close();
    }
    return summary;
  } finally {
    cache?.close();
  }
}

async function copyCache(cache: CacheReader, stores: Stores, run: ImportRun, auth: NtfyAuth | undefined, summary: Summary, now: number): Promise<void> {
  // Only to save delivery jobs: never started, so it runs none here.
  const scheduler = new Scheduler(stores.jobs, { release: async () => undefined, housekeeping: async () => undefined }, {
    housekeepingEveryMs: run.config.managerIntervalMs,
    onError: (err) => run.out.write(`scheduler: ${err.message}\n`),
  });
  try {
    const target: MessageTarget = { cache: stores.cache, attachments: stores.attachments, schedule: (id, at) => scheduler.deliverOnceAt(id, at) };
    await writeMessages(target, messageOptions(cache, run, auth, now), summary);
    await stores.cache.setImportedStats(cache.publishedTotal());
  } finally {
    await scheduler.stop();
  }
}

function messageOptions(cache: CacheReader, run: ImportRun, auth: NtfyAuth | undefined, now: number): MessageOptions {
  const { config } = run;
  return {
    now,
    pages: cache.pages(run.batchSize ?? (config.databaseUrl === '' ? batchSizes.embedded : batchSizes.mongodb)),
    attachmentDir: run.source.attachmentCacheDir,
    progress: new Progress(run.out, 'messages', cache.count()),
    // As Tocsin counts uploads: a user's against the user, an anonymous one against its address.
    ownerOf: (m: NtfyMessage): string => {
      const name = auth?.userNames.get(m.userId);
      if (name !== undefined) return `${userKeyPrefix}${name}`;
      return m.sender === '' ? '' : visitorKey(m.sender, config.visitorPrefixBitsIpv4, config.visitorPrefixBitsIpv6);
    },
  };
}

/** ntfy's cache-duration, taken to be Tocsin's: it dates messages of files before ntfy 2.0. */
function cacheDuration(config: Config): number {
  return config.cacheDurationMs / 1000;
}

/** Tocsin's stores, refusing a config with nowhere to keep what is imported. */
async function openTarget(config: Config, users: boolean, messages: boolean): Promise<Stores> {
  if (config.databaseUrl === '') {
    if (messages && config.cacheFile === '') throw new ConfigError("the Tocsin config sets no cache-file (nor database-url): imported messages would only live in memory");
    if (users && config.authFile === '') throw new ConfigError('the Tocsin config sets no auth-file (nor database-url): imported users would have nowhere to go');
  }
  const report = (details: object, message: string): void => void process.stderr.write(`${message} ${JSON.stringify(details)}\n`);
  const stores = await openStores(config, { error: report, warn: report });
  if (users && !stores.auth) {
    await stores.close();
    throw new ConfigError('the Tocsin config keeps no users: set auth-file');
  }
  return stores;
}
