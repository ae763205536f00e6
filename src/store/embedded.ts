import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Config } from '../config/schema.js';
import type { AuthStore } from './auth-store.js';
import { openAttachments } from './attachment-choice.js';
import { AttachmentFiles } from './files/attachment-files.js';
import { AttachmentIndex } from './files/attachment-index.js';
import type { Stores } from './index.js';
import type { Store } from './store.js';
import { SqliteAuthStore } from './sqlite/auth-store.js';
import { opening } from './sqlite/open-error.js';
import { openSqliteStore } from './sqlite/store.js';
import { SqliteWebPushStore } from './sqlite/webpush-store.js';
import type { WebPushStore } from './webpush-store.js';
import type { MonitorStore } from './monitor-store.js';
import { SqliteMonitorStore } from './sqlite/monitor-store.js';

/**
 * The embedded backend, used when database-url is unset: the cache and the jobs in one
 * SQLite file (cache-file; memory when empty), access control in its own SQLite file
 * (auth-file), browsers' push subscriptions in theirs (web-push-file, ntfy's schema) and
 * uploads as files (attachment-cache-dir; or in an S3 bucket, indexed beside the cache
 * file, see s3IndexFile). A store that fails to open
 * closes the ones opened before it.
 */
export async function openEmbedded(config: Config): Promise<Stores> {
  const { store, knownTopics } = await openCache(config);
  let auth: AuthStore | undefined;
  let webPush: WebPushStore | undefined;
  let monitors: MonitorStore | undefined;
  try {
    auth = config.authFile ? await openAuthFile(config.authFile) : undefined;
    webPush = config.webPush ? await openWebPushFile(config.webPush.file, config.webPush.startupQueries) : undefined;
    monitors = config.monitors ? await openMonitorFile(config.monitors.file) : undefined;
    const attachments = await openAttachments(config, () => AttachmentFiles.open(config.attachmentCacheDir), () => new AttachmentIndex(s3IndexFile(config.cacheFile)));
    const close = async (): Promise<void> => {
      await store.close();
      await auth?.close();
      await webPush?.close();
      await monitors?.close();
      await attachments?.close();
    };
    return { ...store, knownTopics, auth, attachments, webPush, monitors, close };
  } catch (err) {
    await store.close();
    await auth?.close();
    await webPush?.close();
    await monitors?.close();
    throw err;
  }
}

/**
 * Where the embedded backend keeps the index of attachments in S3: beside the cache file,
 * whose messages they belong to (named like SQLite's own companions of it), or in memory
 * with the cache.
 */
export function s3IndexFile(cacheFile: string): string {
  return cacheFile === '' ? '' : `${cacheFile}-attachments`;
}

/**
 * The auth-file for the admin commands, which never create it: ntfy's CLI wants a file
 * the server made, so a typo in the path is not taken for a new, empty database.
 */
export function openExistingAuthFile(config: Config): AuthStore {
  if (!config.authFile) throw new Error('option auth-file not set; auth is unconfigured for this server');
  if (!existsSync(config.authFile)) throw new Error('auth-file does not exist; please start the server at least once to create it');
  return new SqliteAuthStore(config.authFile);
}

// SQLite reads a file's pages lazily: a corrupt one may only fail at the first query, so
// the first read belongs to the opening.
function openCache(config: Config): Promise<{ store: Store & { ping(): Promise<void> }; knownTopics: Set<string> }> {
  return opening('cache file', config.cacheFile, async () => {
    if (config.cacheFile) mkdirSync(dirname(config.cacheFile), { recursive: true });
    const store = openSqliteStore(config.cacheFile, config.cacheStartupQueries);
    try {
      return { store, knownTopics: await store.cache.topics() };
    } catch (err) {
      await store.close();
      throw err;
    }
  });
}

function openAuthFile(file: string): Promise<AuthStore> {
  return opening('auth-file', file, async () => {
    mkdirSync(dirname(file), { recursive: true });
    return new SqliteAuthStore(file);
  });
}

function openMonitorFile(file: string): Promise<MonitorStore> {
  return opening('monitor-file', file, async () => {
    mkdirSync(dirname(file), { recursive: true });
    return new SqliteMonitorStore(file);
  });
}

function openWebPushFile(file: string, startupQueries: string): Promise<WebPushStore> {
  return opening('web-push-file', file, async () => {
    mkdirSync(dirname(file), { recursive: true });
    return new SqliteWebPushStore(file, startupQueries);
  });
}
