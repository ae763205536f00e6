import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { loadConfig, type RawValues } from '../../src/config/load.js';
import { nowSeconds } from '../../src/model/message.js';
import { readTocsinAuth } from '../../src/migrate/tocsin/auth-reader.js';
import { importTocsin } from '../../src/migrate/tocsin/import.js';
import { openStores } from '../../src/store/index.js';
import { SqliteAuthStore } from '../../src/store/sqlite/auth-store.js';
import type { WebPushRegistration } from '../../src/store/webpush-store.js';
import { startTestServer, tempDir } from '../support/server.js';
import { describeImportTocsinInto, sourceSummary } from './import-tocsin-cases.js';
import { ntfyFiles, quietOutput } from './ntfy-fixtures.js';
import { embeddedFiles, fileSettings, makeTocsinSource, poll, sharedSettings, type TocsinSource } from './tocsin-source.js';

/** `tocsin import tocsin` into the embedded files of a second config; its dry run, a run cut short, the command and its refusals. */

const targetFiles = embeddedFiles();
describeImportTocsinInto('the embedded files of another config', { settings: async () => fileSettings(targetFiles), skip: false });

const configOf = (settings: RawValues): ReturnType<typeof loadConfig>['config'] => loadConfig({ flags: settings }).config;
const bin = new URL('../../../bin/tocsin.js', import.meta.url).pathname;
const tocsin = (args: string[]): ReturnType<typeof spawnSync> => spawnSync(process.execPath, [bin, 'import', 'tocsin', ...args], { encoding: 'utf8' });

/** A server.yml with `settings`. */
function configFile(settings: RawValues): string {
  const file = join(tempDir(), 'server.yml');
  writeFileSync(file, Object.entries(settings).map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join('\n'));
  return file;
}

const sourceFlags = (files: TocsinSource['files']): string[] => [
  '--cache-file', files.cacheFile, '--auth-file', files.authFile, '--web-push-file', files.webPushFile, '--attachment-cache-dir', files.attachmentCacheDir,
];

describe('import tocsin — dry run, a run cut short, the command', () => {
  const files = embeddedFiles();
  let source: TocsinSource;
  before(async () => {
    source = await makeTocsinSource(files, 3600);
  });

  it('a dry run reads everything and writes nothing', async () => {
    const config = configOf({ ...sharedSettings, ...fileSettings(embeddedFiles()) });
    const dry = await importTocsin({ config, source: source.files, dryRun: true, out: quietOutput() });
    assert.deepEqual(dry.lines(true), sourceSummary.map((l) => l.replace(' added', ' to add')));
    assert.deepEqual([config.cacheFile, config.authFile, config.webPush?.file].map((f) => existsSync(f ?? '')), [false, false, false]);
  });

  it("a run cut short after some batches is completed by the next, in the source's order", async () => {
    const settings = { ...sharedSettings, ...fileSettings(embeddedFiles()) };
    // What an interrupt after the first batches leaves: the source's oldest commits only.
    const partial = { ...source.files, cacheFile: join(tempDir(), 'partial.db') };
    copyFileSync(source.files.cacheFile, partial.cacheFile);
    const db = new Database(partial.cacheFile);
    db.prepare('DELETE FROM messages WHERE seq > 3').run();
    db.close();
    const cut = await importTocsin({ config: configOf(settings), source: partial, dryRun: false, out: quietOutput(), batchSize: 2 });
    const rest = await importTocsin({ config: configOf(settings), source: source.files, dryRun: false, out: quietOutput(), batchSize: 2 });
    assert.deepEqual([cut.addedOf('messages'), rest.addedOf('messages'), rest.addedOf('users')], [3, 4, 0]);
    const s = await startTestServer(settings);
    after(() => s.server.close());
    assert.deepEqual(await poll(s.url, 'alerts', 'since=all&scheduled=1'), source.polls.alerts);
    assert.deepEqual((await poll(s.url, 'alerts', `since=${source.alerts[0]}`)).map((m) => m.id), source.alerts.slice(1));
  });

  it('the command — progress on stderr, the summary on stdout, exit code 0', () => {
    const out = tocsin(['--config', configFile({ ...sharedSettings, ...fileSettings(embeddedFiles()) }), ...sourceFlags(source.files)]);
    assert.equal(out.status, 0, String(out.stderr));
    assert.equal(out.stderr, 'messages: 8/8 (100%)\n');
    assert.equal(out.stdout, ['imported from the embedded files:', ...sourceSummary.map((l) => `  ${l}`), ''].join('\n'));
  });
});

describe('import tocsin — what the target would not keep is counted, with why', () => {
  const files = embeddedFiles();
  const withoutWebPush = Object.fromEntries(Object.entries(sharedSettings).filter(([key]) => !key.startsWith('web-push-')));
  before(async () => {
    // Given: a file whose message is gone, and a browser that stopped renewing 61 days ago beside one that renews.
    const stores = await openStores(configOf({ ...sharedSettings, ...fileSettings(files) }), { error: () => undefined, warn: () => undefined });
    const upload = await stores.attachments!.create('orphan000001', '127.0.0.1', () => true);
    upload.write(Buffer.from('left behind'));
    await upload.commit({ type: 'text/plain', name: 'note.txt', expires: nowSeconds() + 3600 });
    const browser = (name: string): WebPushRegistration => ({ endpoint: `https://fcm.googleapis.com/fcm/send/${name}`, auth: 'a', p256dh: 'p', userId: '', subscriberIp: '127.0.0.1', topics: ['weather'] });
    await stores.webPush!.upsert(browser('gone'), nowSeconds() - 61 * 86400);
    await stores.webPush!.upsert(browser('renewing'), nowSeconds());
    await stores.close();
  });

  it('a file without its message, a subscription past web-push-expiry-duration, and web push without keys', async () => {
    const into = async (settings: RawValues): Promise<string[]> =>
      (await importTocsin({ config: configOf({ ...settings, ...fileSettings(embeddedFiles()) }), source: files, dryRun: true, out: quietOutput() })).lines(true);
    assert.deepEqual(await into(sharedSettings), [
      'users                   0 read, 0 to add',
      'attachment files        1 read, 0 to add, 1 no message imported with it',
      'web push subscriptions  2 read, 1 to add, 1 expired',
    ]);
    assert.deepEqual((await into(withoutWebPush)).slice(2), ['web push subscriptions  2 read, 0 to add, 2 not kept: the Tocsin config sets no web-push keys']);
  });
});

describe('import tocsin — refusals: exit code 1 and the problem named, nothing written', () => {
  /** Tocsin's embedded files, made by opening its stores once (schemas, no records). */
  const files = embeddedFiles();
  const target = configFile({ ...sharedSettings, ...fileSettings(embeddedFiles()) });
  before(async () => {
    const stores = await openStores(configOf({ ...sharedSettings, ...fileSettings(files) }), { error: () => undefined, warn: () => undefined });
    await stores.close();
  });

  const refused = (args: string[], message: string): void => {
    const out = tocsin(args);
    assert.equal(out.status, 1, String(out.stderr));
    assert.equal(out.stderr, `tocsin: ${message}\n`);
    assert.equal(out.stdout, '');
  };

  it('the target config on the very files of the source (database-url forgotten)', () => {
    const same = configFile({ ...sharedSettings, ...fileSettings(files) });
    refused(['--config', same, ...sourceFlags(files)],
      `--cache-file ${files.cacheFile} is the cache-file of the config written to: the import would copy it onto itself (set database-url there, or other files)`);
    refused(['--config', same, '--web-push-file', files.webPushFile],
      `--web-push-file ${files.webPushFile} is the web-push-file of the config written to: the import would copy it onto itself (set database-url there, or other files)`);
  });

  it("ntfy's files, and files that are not SQLite", () => {
    const ntfy = ntfyFiles('2.13.0');
    refused(['--config', target, '--cache-file', ntfy.cacheFile],
      `${ntfy.cacheFile}: not a Tocsin cache-file: it lacks messages.seq, messages.json, table schema_version; it looks like ntfy's, which \`tocsin import ntfy\` reads`);
    refused(['--config', target, '--auth-file', ntfy.authFile],
      `${ntfy.authFile}: not a Tocsin auth-file: it lacks table tiers, table users, table access, table tokens; it looks like ntfy's, which \`tocsin import ntfy\` reads`);
    const text = join(tempDir(), 'notes.txt');
    writeFileSync(text, 'these are notes, not a database\n'.repeat(20));
    refused(['--config', target, '--auth-file', text], `${text}: not a Tocsin auth-file: it is not a SQLite database (corrupt, or some other kind of file)`);
    refused(['--config', target, '--web-push-file', files.cacheFile],
      `${files.cacheFile}: not a Tocsin web-push-file: it lacks table subscription, table subscription_topic, table schemaVersion`);
    const missing = join(tempDir(), 'missing.db');
    refused(['--config', target, '--cache-file', missing], `${missing}: no such file (the cache-file to import)`);
  });

  it('a schema newer than this Tocsin, and an attachment directory without its index', () => {
    const newer = join(tempDir(), 'cache.db');
    cpSync(files.cacheFile, newer);
    const db = new Database(newer);
    db.prepare('UPDATE schema_version SET version = 99').run();
    db.close();
    refused(['--config', target, '--cache-file', newer], `${newer}: cache schema version 99 is newer than this Tocsin (3): import with the Tocsin that made it`);
    const bare = join(tempDir(), 'attachments');
    mkdirSync(bare);
    refused(['--config', target, '--cache-file', files.cacheFile, '--attachment-cache-dir', bare], `${bare}: not a Tocsin attachment-cache-dir: it has no index.db`);
    refused(['--config', target, '--auth-file', files.authFile, '--attachment-cache-dir', files.attachmentCacheDir], '--attachment-cache-dir needs --cache-file: each file is copied with its message');
    refused(['--config', target, '--attachment-cache-dir', files.attachmentCacheDir], 'nothing to import: give --cache-file, --auth-file and/or --web-push-file');
    const targetFiles = loadConfig({ file: target, env: {}, flags: {} }).config;
    assert.deepEqual([targetFiles.cacheFile, targetFiles.authFile].map((f) => existsSync(f)), [false, false], 'nothing written');
  });
});

describe('import tocsin — token scopes', () => {
  it('a scoped token keeps its scopes, never its user’s full rights', async () => {
    // given an auth-file with a scoped and an unscoped token
    const file = join(tempDir(), 'auth.db');
    const store = new SqliteAuthStore(file);
    await store.addUser('ci', '$hash', 'user');
    const scopes = [{ topic: 'deploys', permission: { read: false, write: true } }];
    await store.addToken('ci', { token: 'tk_scopedscopedscopedscopedscope', label: 'ci', expires: 0, lastAccess: 0, lastOrigin: '', scopes });
    await store.addToken('ci', { token: 'tk_plainplainplainplainplainplai', label: '', expires: 0, lastAccess: 0, lastOrigin: '' });
    await store.close();
    // when it is read for import, then the scoped one carries its scopes and the other none
    const read = readTocsinAuth(file).tokens.map((t) => [t.token.token, t.token.scopes]);
    assert.deepEqual(read, [['tk_scopedscopedscopedscopedscope', scopes], ['tk_plainplainplainplainplainplai', undefined]]);
  });
});
