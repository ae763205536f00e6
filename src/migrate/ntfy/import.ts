import { join } from 'node:path';
import type { Config } from '../../config/schema.js';
import { nowSeconds } from '../../model/message.js';
import { userKeyPrefix } from '../../visitors/visitors.js';
import { visitorKey } from '../../visitors/address.js';
import { Progress } from '../progress.js';
import { Summary } from '../summary.js';
import { batchSize, openTarget, writeCache, type ImportRun } from '../target.js';
import { writeAuth } from '../write-auth.js';
import type { ImportedMessage, MessageOptions, UploadedFile } from '../write-messages.js';
import { readNtfyAuth, type NtfyAuth } from './auth-reader.js';
import { CacheReader, type NtfyMessage } from './cache-reader.js';

/** An ntfy server's files, as its server.yml names them; any may be left out. */
export interface NtfySource {
  cacheFile?: string;
  authFile?: string;
  attachmentCacheDir?: string;
}

/**
 * `tocsin import ntfy`: reads ntfy's files (every schema version ntfy shipped; a version
 * it does not know stops the run before anything is written) and writes them through the
 * store ports into whatever backend `config` selects. Every step skips what the target
 * holds already, so a second run adds nothing and a run after an interrupt completes the
 * first. Answers the counts.
 */
export async function importNtfy(run: ImportRun<NtfySource>): Promise<Summary> {
  const { config, source, dryRun } = run;
  const auth = source.authFile ? readNtfyAuth(source.authFile) : undefined;
  const cache = source.cacheFile ? new CacheReader(source.cacheFile, cacheDuration(config)) : undefined;
  try {
    const summary = new Summary();
    const now = nowSeconds();
    const stores = dryRun ? undefined : await openTarget(config, auth !== undefined, cache !== undefined);
    try {
      if (auth) await writeAuth(auth, stores?.auth, summary, now);
      if (cache) await writeCache(stores, run, messageOptions(cache, run, auth, now), summary, cache.publishedTotal());
    } finally {
      await stores?.close();
    }
    return summary;
  } finally {
    cache?.close();
  }
}

function messageOptions(cache: CacheReader, run: ImportRun<NtfySource>, auth: NtfyAuth | undefined, now: number): MessageOptions {
  const { config, source } = run;
  // As Tocsin counts uploads: a user's against the user, an anonymous one against its address.
  const ownerOf = (m: NtfyMessage): string => {
    const name = auth?.userNames.get(m.userId);
    if (name !== undefined) return `${userKeyPrefix}${name}`;
    return m.sender === '' ? '' : visitorKey(m.sender, config.visitorPrefixBitsIpv4, config.visitorPrefixBitsIpv6);
  };
  // ntfy's attachment-cache-dir names each file by its message id; the metadata is the message's.
  const fileOf = (m: NtfyMessage): UploadedFile | undefined => {
    const { id, attachment } = m.entry.message;
    if (!attachment || !m.fileKept || !source.attachmentCacheDir) return undefined;
    return { path: join(source.attachmentCacheDir, id), owner: ownerOf(m), type: attachment.type ?? 'application/octet-stream', name: attachment.name, expires: attachment.expires ?? 0 };
  };
  function* pages(): Generator<ImportedMessage[]> {
    for (const page of cache.pages(batchSize(run))) yield page.map((m) => ({ entry: m.entry, file: fileOf(m) }));
  }
  return { now, pages: pages(), progress: new Progress(run.out, 'messages', cache.count()) };
}

/** ntfy's cache-duration, taken to be Tocsin's: it dates messages of files before ntfy 2.0. */
function cacheDuration(config: Config): number {
  return config.cacheDurationMs / 1000;
}
