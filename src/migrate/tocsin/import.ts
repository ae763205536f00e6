import { statSync } from 'node:fs';
import { ConfigError } from '../../config/load.js';
import type { Config } from '../../config/schema.js';
import { nowSeconds } from '../../model/message.js';
import { Progress } from '../progress.js';
import { Summary } from '../summary.js';
import { batchSize, openTarget, writeCache, type ImportRun } from '../target.js';
import { writeAuth } from '../write-auth.js';
import { fileKind, type ImportedMessage } from '../write-messages.js';
import { leaveOutWebPush, writeWebPush } from '../write-webpush.js';
import { TocsinAttachments } from './attachment-reader.js';
import { readTocsinAuth } from './auth-reader.js';
import { TocsinCacheReader } from './cache-reader.js';
import { readWebPush } from './webpush-reader.js';

/** A Tocsin's embedded files, as its server.yml named them; any may be left out. */
export interface TocsinSource {
  cacheFile?: string;
  authFile?: string;
  webPushFile?: string;
  /** Only with `cacheFile`: a file is copied with its message. */
  attachmentCacheDir?: string;
}

/**
 * `tocsin import tocsin`: copies a Tocsin's embedded files (cache-file, auth-file,
 * web-push-file, attachment-cache-dir), read-only, into the stores `config` selects —
 * typically PostgreSQL or MongoDB after `database-url` was set — through the store ports,
 * with the writers of `tocsin import ntfy`. Every source is checked before anything is
 * written; every step skips what the target holds already, so a second run adds nothing
 * and a run after an interrupt completes the first. Answers the counts.
 */
export async function importTocsin(run: ImportRun<TocsinSource>): Promise<Summary> {
  const { config, source, dryRun } = run;
  if (source.attachmentCacheDir && !source.cacheFile) throw new ConfigError('--attachment-cache-dir needs --cache-file: each file is copied with its message');
  refuseSameFiles(config, source);
  const auth = source.authFile ? readTocsinAuth(source.authFile) : undefined;
  const webPush = source.webPushFile ? readWebPush(source.webPushFile) : undefined;
  let cache: TocsinCacheReader | undefined;
  let files: TocsinAttachments | undefined;
  try {
    cache = source.cacheFile ? new TocsinCacheReader(source.cacheFile) : undefined;
    files = source.attachmentCacheDir ? new TocsinAttachments(source.attachmentCacheDir) : undefined;
    const summary = new Summary();
    const now = nowSeconds();
    const stores = dryRun ? undefined : await openTarget(config, auth !== undefined, cache !== undefined);
    try {
      if (auth) await writeAuth(auth, stores?.auth, summary, now);
      if (cache) {
        await writeCache(stores, run, { now, pages: pages(cache, files, batchSize(run)), progress: new Progress(run.out, 'messages', cache.count()) }, summary, cache.publishedTotal());
      }
      if (files) {
        // Counted too: a file whose message expired (or is gone) has nothing to go with.
        const unread = files.count() - summary.readOf(fileKind);
        summary.read(fileKind, unread);
        summary.skipped(fileKind, 'no message imported with it', unread);
      }
      if (webPush && config.webPush) await writeWebPush(webPush, stores?.webPush, summary, now, config.webPush.expiryMs);
      else if (webPush) leaveOutWebPush(webPush.length, summary);
    } finally {
      await stores?.close();
    }
    return summary;
  } finally {
    cache?.close();
    files?.close();
  }
}

/** The cache's messages a page at a time, each with its uploaded file when the directory keeps one. */
function* pages(cache: TocsinCacheReader, files: TocsinAttachments | undefined, size: number): Generator<ImportedMessage[]> {
  for (const page of cache.pages(size)) {
    yield page.map((entry) => ({ entry, file: entry.message.attachment ? files?.fileOf(entry.message.id) : undefined }));
  }
}

/**
 * Refuses a target on the very files of the source (the same config given twice, or
 * database-url forgotten): the import would write what it reads.
 */
function refuseSameFiles(config: Config, source: TocsinSource): void {
  if (config.databaseUrl !== '') return;
  const targets: [key: string, path: string][] = [
    ['cache-file', config.cacheFile], ['auth-file', config.authFile],
    ['web-push-file', config.webPush?.file ?? ''], ['attachment-cache-dir', config.attachmentCacheDir],
  ];
  const sources: [flag: string, path: string | undefined][] = [
    ['--cache-file', source.cacheFile], ['--auth-file', source.authFile],
    ['--web-push-file', source.webPushFile], ['--attachment-cache-dir', source.attachmentCacheDir],
  ];
  for (const [flag, path] of sources) {
    const same = path === undefined ? undefined : targets.find(([, target]) => target !== '' && sameFile(path, target));
    if (same) {
      throw new ConfigError(`${flag} ${path} is the ${same[0]} of the config written to: the import would copy it onto itself (set database-url there, or other files)`);
    }
  }
}

function sameFile(a: string, b: string): boolean {
  const [sa, sb] = [statSync(a, { throwIfNoEntry: false }), statSync(b, { throwIfNoEntry: false })];
  return sa !== undefined && sb !== undefined && sa.dev === sb.dev && sa.ino === sb.ino;
}
