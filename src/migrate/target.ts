import { ConfigError } from '../config/load.js';
import type { Config } from '../config/schema.js';
import { openStores, type Stores } from '../store/index.js';
import { Scheduler } from '../streams/scheduler.js';
import type { ProgressOutput } from './progress.js';
import type { Summary } from './summary.js';
import { writeMessages, type MessageOptions } from './write-messages.js';

/** One run of an import from another server's files (`source`). */
export interface ImportRun<Source> {
  /** Tocsin's configuration: the stores it selects are written. */
  config: Config;
  source: Source;
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
const batchSizes = { embedded: 50_000, database: 1000 };

export function batchSize(run: ImportRun<unknown>): number {
  return run.batchSize ?? (run.config.databaseUrl === '' ? batchSizes.embedded : batchSizes.database);
}

/** Tocsin's stores, refusing a config with nowhere to keep what is imported. */
export async function openTarget(config: Config, users: boolean, messages: boolean): Promise<Stores> {
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

/**
 * Writes the messages of `options` into `stores` (only counts them without: a dry run),
 * then sets the source's total of published messages, which the stats carry on from.
 */
export async function writeCache(stores: Stores | undefined, run: ImportRun<unknown>, options: MessageOptions, summary: Summary, publishedTotal: number): Promise<void> {
  if (!stores) return writeMessages(undefined, options, summary);
  // Only to save delivery jobs: never started, so it runs none here.
  const scheduler = new Scheduler(stores.jobs, { release: async () => undefined, housekeeping: async () => undefined }, {
    housekeepingEveryMs: run.config.managerIntervalMs,
    onError: (err) => run.out.write(`scheduler: ${err.message}\n`),
  });
  try {
    const target = { cache: stores.cache, attachments: stores.attachments, schedule: (id: string, at: Date) => scheduler.deliverOnceAt(id, at) };
    await writeMessages(target, options, summary);
    await stores.cache.setImportedStats(publishedTotal);
  } finally {
    await scheduler.stop();
  }
}
