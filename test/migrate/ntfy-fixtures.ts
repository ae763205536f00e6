import { cpSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { loadConfig, type RawValues } from '../../src/config/load.js';
import type { Config } from '../../src/config/schema.js';
import type { ProgressOutput } from '../../src/migrate/progress.js';
import { tempDir } from '../support/server.js';

/** test/fixtures/ntfy, made by real ntfy servers (see its README). */
const fixtures = new URL('../../../test/fixtures/ntfy/', import.meta.url).pathname;

export interface NtfyFiles {
  cacheFile: string;
  authFile: string;
  attachmentCacheDir: string;
  /** When the fixture's scheduled message is due now: an hour after the copy was made. */
  scheduledAt: number;
}

/**
 * A copy of the files of ntfy `version`, in a temp directory. The fixture's delayed
 * message was due two hours after the fixture was made; the copy makes it due an hour
 * from now, as a server moved within that time would see it.
 */
export function ntfyFiles(version: '2.13.0' | '1.29.1'): NtfyFiles {
  const dir = tempDir();
  cpSync(join(fixtures, version), dir, { recursive: true });
  const files = { cacheFile: join(dir, 'cache.db'), authFile: join(dir, 'user.db'), attachmentCacheDir: join(dir, 'attachments') };
  const scheduledAt = Math.floor(Date.now() / 1000) + 3600;
  const db = new Database(files.cacheFile);
  db.prepare('UPDATE messages SET time = ? WHERE published = 0').run(scheduledAt);
  db.close();
  return { ...files, scheduledAt };
}

/**
 * Tocsin's config for an import target in a fresh temp directory (embedded stores), or on
 * `settings['database-url']`. cache-duration is ten years: files of ntfy before 2.0 keep no
 * expiry, which then is their time plus cache-duration (ntfy's own migration).
 */
export function tocsinConfig(settings: RawValues = {}): { config: Config; settings: RawValues } {
  const dir = tempDir();
  const all: RawValues = {
    'base-url': 'http://127.0.0.1:8080',
    'cache-file': join(dir, 'cache.db'),
    'auth-file': join(dir, 'user.db'),
    'attachment-cache-dir': join(dir, 'attachments'),
    'cache-duration': '87600h',
    'enable-login': true,
    'enable-reservations': true,
    ...settings,
  };
  return { config: loadConfig({ flags: all }).config, settings: all };
}

/** Progress written nowhere but kept for a look. */
export function quietOutput(): ProgressOutput & { text: string } {
  return { isTTY: false, text: '', write(t: string) { this.text += t; } };
}

/** The ids, in ntfy's commit order, of the 2.13.0 fixture's messages, and its credentials. */
export const v213 = {
  backups: '18gK1McU1Mvf',
  alerts: ['6ikAPB5gulZO', 'E61QFREkypUN', 'UPaXAQTW2TWV', 'HUymyqlzH55L', 'HxK4CHDuK06R', 'tlYMM8jQp1Se'],
  scheduled: '9liL4ypRws9U',
  photos: ['d5JDrnfLTtOT', 'S0MRRZaPEHPv'],
  announcements: 'F2VKLQrYBkLr',
  builds: 'WchOnXmlA9v3',
  expired: 'xK7kKGTegDpl',
  benToken: 'tk_0rp6vtm2iqg9dzzs4qhzrnnfwqhrb',
  philToken: 'tk_5gzolvy7lmnmpj9avwts0s9kmpd5i',
  photoBytes: Buffer.from('\x89PNG\r\n\x1a\nfixture image bytes', 'latin1'),
};

/** The summary an import of the 2.13.0 fixture into empty stores reports. */
export const v213Summary = [
  'users             4 read, 3 added, 1 deleted accounts',
  'tiers             2 read, 2 added',
  'access entries    5 read, 5 added',
  'reservations      2 read, 2 added',
  'tokens            2 read, 2 added',
  'messages          13 read, 12 added, 1 expired',
  'attachment files  1 read, 1 added',
];

export const v129 = {
  alerts: ['xvC3cJ605UCW', 'nF5OeapjCX1t', '30zCgldCemap', '8cAHiBvo79cJ', 'kzC52Yfyye4f'],
  scheduled: 'UAfX27FwIGWV',
  photo: 'LiEc9IqxXWrL',
};

export const basic = (user: string, password: string): string => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
