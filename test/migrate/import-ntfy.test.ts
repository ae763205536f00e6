import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { importNtfy } from '../../src/migrate/ntfy/import.js';
import type { Summary } from '../../src/migrate/summary.js';
import { openStores } from '../../src/store/index.js';
import { publish, type Json } from '../support/clients.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { basic, ntfyFiles, quietOutput, tocsinConfig, v129, v213, v213Summary, type NtfyFiles } from './ntfy-fixtures.js';

/** `tocsin import ntfy` into the embedded stores, from files real ntfy servers made. */

const silentLog = { error: () => undefined, warn: () => undefined };

function importInto(config: ReturnType<typeof tocsinConfig>['config'], files: NtfyFiles, dryRun = false, batchSize?: number): Promise<Summary> {
  return importNtfy({ config, source: files, dryRun, out: quietOutput(), ...(batchSize && { batchSize }) });
}

async function poll(url: string, topic: string, query: string, headers: Record<string, string> = {}): Promise<Json[]> {
  const text = await (await fetch(`${url}/${topic}/json?poll=1&${query}`, { headers })).text();
  return text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Json);
}

const ids = (messages: Json[]): unknown[] => messages.map((m) => m.id);

describe('import ntfy 2.13 — every record, then a server over the result', () => {
  const files = ntfyFiles('2.13.0');
  const target = tocsinConfig();
  let summary: Summary;
  let s: TestServer;

  before(async () => {
    summary = await importInto(target.config, files);
  });
  after(() => s?.server.close());

  it('summary — what was read, added and skipped', () => {
    assert.deepEqual(summary.lines(false), v213Summary);
  });

  it('stores — users, tiers, access, reservations, tokens as ntfy had them', async () => {
    const stores = await openStores(target.config, silentLog);
    after(() => stores.close());
    const auth = stores.auth!;
    assert.deepEqual((await auth.users()).map((u) => [u.name, u.role, u.tier?.code, u.syncTopic]), [
      ['phil', 'admin', undefined, 'st_KRaLpYnfhoMEu'],
      ['ben', 'user', 'pro', 'st_ZHpAdUMVFv4T0'],
      ['carl', 'user', 'ephemeral', 'st_Sv3AJlUeaswYn'],
    ]);
    const ben = await auth.user('ben');
    assert.equal(ben?.hash, '$2a$10$i6fU7i32bWJd9GE9AugzZurHySf/dzLwwegIp4vzyX1JwwF2TUefq');
    assert.deepEqual(ben?.prefs, {
      language: 'de',
      notification: { sound: 'dadum', min_priority: 3, delete_after: 86400 },
      subscriptions: [{ base_url: 'http://127.0.0.1:48783', topic: 'alerts', display_name: 'Alerts' }],
    });
    assert.equal(await auth.user('dora'), undefined, 'an account deleted on ntfy stays deleted');
    assert.deepEqual(await auth.tier('pro'), {
      code: 'pro', name: 'Pro', messageLimit: 10000, messageExpiryDuration: 315360000, emailLimit: 50, callLimit: 5, reservationLimit: 5,
      attachmentFileSizeLimit: 20971520, attachmentTotalSizeLimit: 1073741824, attachmentExpiryDuration: 315360000, attachmentBandwidthLimit: 5368709120,
    });
    assert.equal((await auth.tier('ephemeral'))?.messageExpiryDuration, 1);
    const rw = { read: true, write: true };
    assert.deepEqual(await auth.grants('ben'), [
      { topic: 'ben-private', permission: rw }, { topic: 'ben-news', permission: rw },
      { topic: 'alerts*', permission: rw }, { topic: 'backups', permission: { read: true, write: false } },
    ]);
    assert.deepEqual(await auth.grants('carl'), [{ topic: 'alerts_*', permission: { read: false, write: true } }]);
    assert.deepEqual(await auth.permission('carl', 'alerts_x'), { read: false, write: true }, '`_` is a plain character again');
    assert.equal(await auth.permission('carl', 'alertsXx'), undefined);
    assert.deepEqual(await auth.permission('nobody', 'announcements'), { read: true, write: false });
    assert.deepEqual(await auth.permission('nobody', 'secret'), { read: false, write: false });
    assert.deepEqual(await auth.reservations('ben'), [
      { topic: 'ben-news', everyone: { read: true, write: false } },
      { topic: 'ben-private', everyone: { read: false, write: false } },
    ]);
    assert.deepEqual(await auth.tokens('ben'), [{ token: v213.benToken, label: 'backups', expires: 0, lastAccess: 1795617031, lastOrigin: '127.0.0.1', provisioned: false }]);
    assert.deepEqual(await auth.tokens('phil'), [{ token: v213.philToken, label: 'laptop', expires: 2110977025, lastAccess: 1795617026, lastOrigin: '0.0.0.0', provisioned: false }]);
    assert.equal(await stores.cache.loadStats(), 11, "ntfy's published total");
    assert.equal(await stores.cache.count(), 12);
    assert.deepEqual(await stores.attachments!.stat(v213.photos[0]!), {
      id: 'd5JDrnfLTtOT', size: 27, type: 'image/png', name: 'photo.png', owner: '127.0.0.1', expires: 2110977029,
    });
  });

  it('messages — the JSON ntfy served for each, in its order', async () => {
    s = await startTestServer(target.settings);
    const all = async (topic: string): Promise<Json[]> => poll(s.url, topic, 'since=all&scheduled=1');
    assert.deepEqual(await all('backups'), [{ id: '18gK1McU1Mvf', time: 1795617027, expires: 2110977027, event: 'message', topic: 'backups', message: 'Backup finished' }]);
    const alerts = await all('alerts');
    assert.deepEqual(ids(alerts), [...v213.alerts, v213.scheduled]);
    assert.deepEqual(alerts[0], {
      id: '6ikAPB5gulZO', time: 1795617028, expires: 2110977028, event: 'message', topic: 'alerts',
      title: 'Disk full', message: 'Disk /dev/sda1 is 98% full', priority: 5, tags: ['warning', 'skull'],
    });
    assert.deepEqual([alerts[1]?.click, alerts[1]?.icon], ['https://home.example.com/cam', 'https://example.com/icon.png']);
    assert.deepEqual(alerts[2]?.actions, [
      { id: 'yX8p4ouUiG', action: 'view', label: 'Open portal', clear: false, url: 'https://home.example.com' },
      { id: 'n1a085CluP', action: 'http', label: 'Lights off', clear: false, url: 'https://api.example.com/lights', method: 'PUT', body: '{"on":false}' },
    ]);
    assert.deepEqual(alerts.slice(3, 6).map((m) => m.message), ['From ben', 'With a token', 'Newest']);
    assert.deepEqual(alerts[6], {
      id: v213.scheduled, time: files.scheduledAt, expires: 2110984229, event: 'message', topic: 'alerts', title: 'Later', message: 'Scheduled for later',
    });
    const photos = await all('photos');
    assert.deepEqual(photos.map((m) => m.attachment), [
      { name: 'photo.png', type: 'image/png', size: 27, expires: 2110977029, url: 'http://127.0.0.1:48783/file/d5JDrnfLTtOT.png' },
      { name: 'report.pdf', url: 'https://example.com/report.pdf' },
    ]);
    assert.equal(photos[0]?.message, 'You received a file: photo.png');
    assert.deepEqual((await all('builds'))[0], {
      id: 'WchOnXmlA9v3', time: 1795617030, expires: 2110977030, event: 'message', topic: 'builds', message: '**Build** _passed_', content_type: 'text/markdown',
    });
    assert.deepEqual(ids(await all('announcements')), [v213.announcements]);
    assert.deepEqual(await all('alerts_carl'), [], 'expired on ntfy, so not imported');
  });

  it('since=<ntfy id> — continues after it, then with what Tocsin publishes', async () => {
    assert.deepEqual(ids(await poll(s.url, 'alerts', `since=${v213.alerts[1]}`)), v213.alerts.slice(2));
    assert.deepEqual(await poll(s.url, 'alerts', `since=${v213.alerts[5]}`), []);
    const { json: fresh } = await publish(`${s.url}/alerts`, 'after the move');
    assert.deepEqual(ids(await poll(s.url, 'alerts', `since=${v213.alerts[5]}`)), [fresh.id]);
    assert.deepEqual(ids(await poll(s.url, 'alerts', `since=${v213.alerts[3]}`)), [...v213.alerts.slice(4), fresh.id]);
  });

  it('log in — an imported user with the old password, and with an imported token', async () => {
    const byPassword = await fetch(`${s.url}/v1/account`, { headers: { Authorization: basic('ben', 'ben-pass-2') } });
    assert.equal(byPassword.status, 200);
    const account = (await byPassword.json()) as Json;
    assert.deepEqual([account.username, account.role, account.tier, account.language, account.sync_topic], ['ben', 'user', { code: 'pro', name: 'Pro' }, 'de', 'st_ZHpAdUMVFv4T0']);
    assert.deepEqual(account.reservations, [{ topic: 'ben-news', everyone: 'read-only' }, { topic: 'ben-private', everyone: 'deny-all' }]);
    assert.equal((await fetch(`${s.url}/v1/account`, { headers: { Authorization: basic('ben', 'wrong') } })).status, 401);
    assert.equal((await fetch(`${s.url}/v1/account`, { headers: { Authorization: basic('phil', 'phil-pass-1') } })).status, 200);
    const byToken = await fetch(`${s.url}/v1/account`, { headers: { Authorization: `Bearer ${v213.benToken}` } });
    assert.equal(byToken.status, 200);
    assert.equal(((await byToken.json()) as Json).username, 'ben');
    const denied = await fetch(`${s.url}/ben-private/json?poll=1`);
    assert.equal(denied.status, 403, "ben's reservation keeps others out");
    assert.equal((await fetch(`${s.url}/ben-private/json?poll=1`, { headers: { Authorization: `Bearer ${v213.benToken}` } })).status, 200);
  });

  it('attachments — the uploaded file downloads under its old link', async () => {
    const res = await fetch(`${s.url}/file/${v213.photos[0]}.png`);
    assert.equal(res.status, 200);
    assert.deepEqual(Buffer.from(await res.arrayBuffer()), v213.photoBytes);
  });

  it('stats — ntfy\'s total carries on', async () => {
    const stats = (await (await fetch(`${s.url}/v1/stats`)).json()) as Json;
    assert.ok((stats.messages as number) >= 11, `messages ${String(stats.messages)}`);
  });
});

describe('import ntfy — run twice, cut short, dry run', () => {
  it('a second run adds nothing', async () => {
    const files = ntfyFiles('2.13.0');
    const { config } = tocsinConfig();
    await importInto(config, files);
    const again = await importInto(config, files);
    assert.deepEqual(again.lines(false), [
      'users             4 read, 0 added, 1 deleted accounts, 3 already there',
      'tiers             2 read, 0 added, 2 already there',
      'access entries    5 read, 0 added, 5 already there',
      'reservations      2 read, 0 added, 2 already there',
      'tokens            2 read, 0 added, 2 already there',
      'messages          13 read, 0 added, 1 expired, 12 already there',
      'attachment files  1 read, 0 added, 1 already there',
    ]);
    const stores = await openStores(config, silentLog);
    after(() => stores.close());
    assert.deepEqual([await stores.cache.count(), await stores.cache.loadStats(), (await stores.auth!.users()).length], [12, 11, 3]);
    assert.equal(jobCount(config.cacheFile), 1, 'one delivery job for the scheduled message');
  });

  it('a run cut short after some batches is completed by the next, in ntfy\'s order', async () => {
    const files = ntfyFiles('2.13.0');
    const { config, settings } = tocsinConfig();
    // What an interrupt after the first batches leaves: the same file with only its oldest rows.
    const partial = ntfyFiles('2.13.0');
    const db = new Database(partial.cacheFile);
    db.prepare('DELETE FROM messages WHERE id > 5').run();
    db.close();
    assert.equal((await importInto(config, partial, false, 2)).addedOf('messages'), 5);
    assert.equal((await importInto(config, files, false, 2)).addedOf('messages'), 7);
    const s = await startTestServer(settings);
    after(() => s.server.close());
    assert.deepEqual(ids(await poll(s.url, 'alerts', 'since=all')), v213.alerts);
    assert.deepEqual(ids(await poll(s.url, 'alerts', `since=${v213.alerts[0]}`)), v213.alerts.slice(1));
  });

  it('a dry run reads everything and writes nothing', async () => {
    const files = ntfyFiles('2.13.0');
    const { config } = tocsinConfig();
    const dry = await importInto(config, files, true);
    assert.deepEqual(dry.lines(true), [
      'users             4 read, 3 to add, 1 deleted accounts',
      'tiers             2 read, 2 to add',
      'access entries    5 read, 5 to add',
      'reservations      2 read, 2 to add',
      'tokens            2 read, 2 to add',
      'messages          13 read, 12 to add, 1 expired',
      'attachment files  1 read, 1 to add',
    ]);
    assert.equal(existsSync(config.cacheFile), false);
    assert.equal(existsSync(config.authFile), false);
  });
});

describe('import ntfy 1.29 — cache schema 9, auth schema 1', () => {
  const files = ntfyFiles('1.29.1');
  const target = tocsinConfig();
  let s: TestServer;
  before(async () => {
    const summary = await importInto(target.config, files);
    assert.deepEqual(summary.lines(false), [
      'users             3 read, 3 added',
      'access entries    5 read, 5 added',
      'messages          10 read, 10 added',
      'attachment files  1 read, 1 added',
    ]);
    s = await startTestServer(target.settings);
  });
  after(() => s?.server.close());

  it('users log in with their old passwords; access entries keep their patterns', async () => {
    for (const [user, password] of [['phil', 'phil-pass-1'], ['ben', 'ben-pass-2'], ['carl', 'carl-pass-3']] as const) {
      const res = await fetch(`${s.url}/v1/account`, { headers: { Authorization: basic(user, password) } });
      assert.equal(res.status, 200, user);
      assert.equal(((await res.json()) as Json).username, user);
    }
    const auth = await openStores(target.config, silentLog);
    after(() => auth.close());
    assert.deepEqual((await auth.auth!.grants('ben')).map((g) => g.topic), ['alerts*', 'backups']);
    assert.deepEqual(await auth.auth!.grants('carl'), [{ topic: 'alerts_*', permission: { read: false, write: true } }]);
    assert.deepEqual((await auth.auth!.grants('*')).map((g) => g.topic), ['announcements', 'secret']);
  });

  it('messages — ids and order kept; expiry is time + cache-duration, as ntfy\'s migration sets it', async () => {
    const alerts = await poll(s.url, 'alerts', 'since=all&scheduled=1');
    assert.deepEqual(ids(alerts), [...v129.alerts, v129.scheduled]);
    assert.deepEqual(alerts[0], {
      id: 'xvC3cJ605UCW', time: 1795617024, expires: 1795617024 + 87600 * 3600, event: 'message', topic: 'alerts',
      title: 'Disk full', message: 'Disk /dev/sda1 is 98% full', priority: 5, tags: ['warning', 'skull'],
    });
    assert.deepEqual(ids(await poll(s.url, 'alerts', `since=${v129.alerts[2]}`)), v129.alerts.slice(3));
    const file = await fetch(`${s.url}/file/${v129.photo}.png`);
    assert.deepEqual(Buffer.from(await file.arrayBuffer()), v213.photoBytes);
  });
});

/** The jobs the embedded store holds (the cache file's Agenda table). */
function jobCount(cacheFile: string): number {
  const db = new Database(cacheFile, { readonly: true });
  try {
    const table = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE '%job%'").pluck().get() as string;
    return db.prepare(`SELECT COUNT(*) FROM "${table}" WHERE name = 'deliver scheduled message'`).pluck().get() as number;
  } finally {
    db.close();
  }
}
