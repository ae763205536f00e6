import assert from 'node:assert/strict';
import { join } from 'node:path';
import bcrypt from 'bcryptjs';
import webpush from 'web-push';
import { loadConfig, type RawValues } from '../../src/config/load.js';
import type { User } from '../../src/model/access.js';
import type { Tier } from '../../src/model/account.js';
import { messageJson, nowSeconds, type Message } from '../../src/model/message.js';
import type { StoredFile } from '../../src/store/attachment-store.js';
import type { Token } from '../../src/store/auth-store.js';
import { openStores } from '../../src/store/index.js';
import type { WebPushSubscription } from '../../src/store/webpush-store.js';
import { apiCall } from '../support/account-api.js';
import { publish, type Json } from '../support/clients.js';
import { startTestServer, tempDir } from '../support/server.js';
import { basic } from './ntfy-fixtures.js';

/**
 * The embedded files of a real Tocsin, made by running one (`tocsin serve` in this
 * process) the way its users do: accounts, a token, a reservation and settings through
 * the account API, messages (one scheduled, one with an uploaded file) through publish,
 * and what has no API without outside services (a tier, a phone number, a browser's push
 * subscription, groups and a proxy's group membership) through the server's own stores.
 * The server keeps a provisioned user, entry, token and group from its settings. After it stopped, one message that expired is added
 * through the embedded store.
 */
export interface TocsinSource {
  files: { cacheFile: string; authFile: string; webPushFile: string; attachmentCacheDir: string };
  /** Each topic's `since=all&scheduled=1` poll (JSON lines as served), read from the source server. */
  polls: Record<(typeof topics)[number], Json[]>;
  alerts: string[];
  scheduled: { id: string; time: number };
  photo: { id: string; bytes: Buffer; stored: StoredFile };
  benToken: string;
  opsToken: string;
  /** What the source's stores held once it stopped. */
  held: {
    users: User[];
    benTokens: Token[];
    webPush: WebPushSubscription[];
    publishedTotal: number;
  };
}

export const topics = ['alerts', 'backups', 'photos', 'ben-private'] as const;

const vapid = webpush.generateVAPIDKeys();
const hash = (password: string): string => bcrypt.hashSync(password, 4);
const opsToken = 'tk_opsprovisioned000000000000000';

export const pro: Tier = {
  code: 'pro', name: 'Pro', messageLimit: 10_000, messageExpiryDuration: 864_000, emailLimit: 50, callLimit: 5, reservationLimit: 5,
  attachmentFileSizeLimit: 20_971_520, attachmentTotalSizeLimit: 1_073_741_824, attachmentExpiryDuration: 864_000, attachmentBandwidthLimit: 5_368_709_120,
};

/** Server settings both sides share, as a server.yml that only gains database-url would (the same hashes, too). */
export const sharedSettings: RawValues = {
  'base-url': 'http://tocsin.example',
  'enable-login': true,
  'enable-reservations': true,
  'auth-default-access': 'read-write',
  'message-delay-min': '1s',
  'web-push-public-key': vapid.publicKey,
  'web-push-private-key': vapid.privateKey,
  'web-push-email-address': 'admin@tocsin.example',
  'auth-users': [`ops:${hash('ops-pass')}:user`],
  'auth-access': ['ops:ops-*:rw'],
  'auth-tokens': [`ops:${opsToken}:deploy`],
  'auth-groups': ['oncall:ops'],
};

type Files = TocsinSource['files'];

/**
 * The embedded files of a Tocsin, in a fresh directory removed when the suite ends: call
 * it in a describe's body, not in a hook (whose end would remove it).
 */
export function embeddedFiles(): Files {
  const dir = tempDir();
  return { cacheFile: join(dir, 'cache.db'), authFile: join(dir, 'user.db'), webPushFile: join(dir, 'webpush.db'), attachmentCacheDir: join(dir, 'attachments') };
}

/** The settings that keep the stores in `files`. */
export function fileSettings(files: Files): RawValues {
  return { 'cache-file': files.cacheFile, 'auth-file': files.authFile, 'web-push-file': files.webPushFile, 'attachment-cache-dir': files.attachmentCacheDir };
}

/**
 * Runs a Tocsin on `files` (new) and fills them; its scheduled message is due
 * `scheduledIn` seconds after it was published, so a target started meanwhile delivers it.
 */
export async function makeTocsinSource(files: Files, scheduledIn: number): Promise<TocsinSource> {
  const settings = { ...sharedSettings, ...fileSettings(files) };
  const s = await startTestServer(settings);
  let closed = false;
  try {
    const auth = s.server.context.access!.store;
    await auth.putTier(pro, false);
    await auth.addUser('phil', hash('phil-pass'), 'admin');
    await auth.addUser('ben', hash('ben-pass'), 'user');
    await auth.changeTier('ben', 'pro');
    await auth.allowAccess('*', 'announcements', { read: true, write: false });
    await auth.allowAccess('ben', 'backups', { read: true, write: true });
    await auth.addPhoneNumber('ben', '+15551234567');
    // A group of the CLI's, with a member and an entry; an entry of the CLI's for the provisioned group; a proxy's membership.
    await auth.addGroup('ops-team');
    await auth.addMember('ops-team', 'ben');
    await auth.allowAccess('*ops-team', 'deploys', { read: true, write: true });
    await auth.allowAccess('*oncall', 'pager-*', { read: true, write: false });
    await auth.syncMemberships('phil', ['ops-team']);
    await s.server.context.webPush!.store.upsert({
      endpoint: 'https://fcm.googleapis.com/fcm/send/ben-laptop', auth: 'YWJjZGVmZ2hpamtsbW5vcA', p256dh: 'BAxoE6e2', userId: 'ben', subscriberIp: '127.0.0.1', topics: ['weather'],
    }, nowSeconds());

    const ben = basic('ben', 'ben-pass');
    const call = async (method: string, path: string, body: unknown): Promise<Json> => {
      const [status, json] = await apiCall(s.url, method, path, ben, body);
      assert.equal(status, 200, `${method} ${path}: ${JSON.stringify(json)}`);
      return json;
    };
    await call('PATCH', '/v1/account/settings', { language: 'de', notification: { sound: 'dadum', min_priority: 3 } });
    await call('POST', '/v1/account/subscription', { base_url: 'http://tocsin.example', topic: 'alerts', display_name: 'Alerts' });
    await call('POST', '/v1/account/reservation', { topic: 'ben-private', everyone: 'deny-all' });
    const benToken = (await call('POST', '/v1/account/token', { label: 'backups', expires: nowSeconds() + 30 * 86400 })).token as string;

    const sent = async (topic: string, body: string | Buffer, headers: Record<string, string> = {}, method = 'POST'): Promise<Json> => {
      const { status, json } = await publish(`${s.url}/${topic}`, body, headers, method);
      assert.equal(status, 200, JSON.stringify(json));
      return json;
    };
    const alerts = [
      await sent('alerts', 'Disk /dev/sda1 is 98% full', { Title: 'Disk full', Tags: 'warning,skull', Priority: '5', Authorization: ben }),
      await sent('alerts', '**Camera** _moved_', { Markdown: 'yes', Click: 'https://home.example.com/cam', Icon: 'https://example.com/icon.png', Actions: 'view, Open portal, https://home.example.com, clear=true' }),
      await sent('alerts', 'Newest', { 'X-Sequence-ID': 'disk-sda1' }),
    ].map((m) => m.id as string);
    await sent('backups', 'Backup finished', { Authorization: `Bearer ${benToken}` });
    await sent('ben-private', 'Only for ben', { Authorization: ben });
    const bytes = Buffer.from('\x89PNG\r\n\x1a\ntocsin source image', 'latin1');
    const photo = await sent('photos', bytes, { Filename: 'photo.png' }, 'PUT');
    const scheduled = await sent('alerts', 'Scheduled for later', { Title: 'Later', Delay: `${scheduledIn}s` });

    const polls = Object.fromEntries(await Promise.all(topics.map(async (t) => [t, await poll(s.url, t, 'since=all&scheduled=1', { Authorization: ben })] as const))) as TocsinSource['polls'];
    await s.server.close();
    closed = true;

    const held = await addExpiredAndRead(settings, photo.id as string);
    return {
      files, polls, alerts, benToken, opsToken,
      scheduled: { id: scheduled.id as string, time: scheduled.time as number },
      photo: { id: photo.id as string, bytes, stored: held.photo },
      held: held.held,
    };
  } finally {
    if (!closed) await s.server.close();
  }
}

/**
 * What the source's stores hold once it stopped, read through the embedded store, which
 * also adds a message that expired a minute ago (as one a tier with a short expiry leaves
 * until housekeeping prunes it).
 */
async function addExpiredAndRead(settings: RawValues, photoId: string): Promise<{ held: TocsinSource['held']; photo: StoredFile }> {
  const stores = await openStores(loadConfig({ flags: settings }).config, { error: () => undefined, warn: () => undefined });
  try {
    const now = nowSeconds();
    const expired: Message = { id: 'expired00001', time: now - 3600, expires: now - 60, event: 'message', topic: 'alerts', message: 'Gone by now' };
    await stores.cache.add([{ message: expired, json: messageJson(expired), published: true }]);
    const auth = stores.auth!;
    return {
      photo: (await stores.attachments!.stat(photoId))!,
      held: {
        users: await auth.users(),
        benTokens: await auth.tokens('ben'),
        webPush: await stores.webPush!.forTopic('weather'),
        publishedTotal: await stores.cache.loadStats(),
      },
    };
  } finally {
    await stores.close();
  }
}

/** A topic's poll: its messages' JSON as served. */
export async function poll(url: string, topic: string, query: string, headers: Record<string, string> = {}): Promise<Json[]> {
  const res = await fetch(`${url}/${topic}/json?poll=1&${query}`, { headers });
  assert.equal(res.status, 200, `poll ${topic}`);
  return (await res.text()).split('\n').filter(Boolean).map((line) => JSON.parse(line) as Json);
}
