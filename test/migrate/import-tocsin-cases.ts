import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadConfig, type RawValues } from '../../src/config/load.js';
import { importTocsin } from '../../src/migrate/tocsin/import.js';
import type { Summary } from '../../src/migrate/summary.js';
import { LineStream, publish, type Json } from '../support/clients.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { basic, quietOutput } from './ntfy-fixtures.js';
import { embeddedFiles, makeTocsinSource, poll, pro, sharedSettings, topics, type TocsinSource } from './tocsin-source.js';

/** Where an import goes: the settings of its stores (other files, or a fresh database's database-url), or why there is none here. */
export interface ImportTarget {
  /** Called in a hook: files it names are made before (see embeddedFiles). */
  settings(): Promise<RawValues>;
  skip: string | false;
}

/**
 * Seconds from the source's scheduled publish to its delivery: the source stops, the
 * import runs twice and the target starts well within them, so the target delivers it.
 */
const scheduledIn = 20;

/** The summary of an import of `makeTocsinSource`'s files into empty stores. */
export const sourceSummary = [
  'users                   3 read, 3 added',
  'tiers                   1 read, 1 added',
  'groups                  2 read, 2 added',
  'group members           3 read, 1 added, 1 provisioned (server.yml makes them at the start), 1 from a proxy header or single sign-on (made again at the next sign-in)',
  'access entries          5 read, 4 added, 1 provisioned (server.yml makes them at the start)',
  'reservations            1 read, 1 added',
  'tokens                  2 read, 1 added, 1 provisioned (server.yml makes them at the start)',
  'phone numbers           1 read, 1 added',
  'messages                8 read, 7 added, 1 expired',
  'attachment files        1 read, 1 added',
  'web push subscriptions  1 read, 1 added',
];

const ids = (messages: Json[]): unknown[] => messages.map((m) => m.id);

/**
 * `tocsin import tocsin` from a real Tocsin's embedded files into `target`, then a real
 * server on the target: what users and phones see must be what the old server served.
 */
export function describeImportTocsinInto(name: string, target: ImportTarget): void {
  describe(`import tocsin into ${name}`, { skip: target.skip }, () => {
    const files = embeddedFiles();
    let source: TocsinSource;
    let settings: RawValues;
    let first: Summary;
    let second: Summary;
    let s: TestServer;
    let live: LineStream;
    let statsAtStart: unknown;
    const ben = basic('ben', 'ben-pass');

    before(async () => {
      // The target's database first: the scheduled message's time runs from its publish.
      const own = await target.settings();
      source = await makeTocsinSource(files, scheduledIn);
      settings = { ...sharedSettings, ...own };
      const { config } = loadConfig({ flags: settings });
      first = await importTocsin({ config, source: source.files, dryRun: false, out: quietOutput() });
      second = await importTocsin({ config, source: source.files, dryRun: false, out: quietOutput() });
      s = await startTestServer(settings);
      statsAtStart = ((await (await fetch(`${s.url}/v1/stats`)).json()) as Json).messages;
      live = new LineStream(`${s.url}/alerts/json`);
      assert.equal((await live.nextJson()).event, 'open');
    });
    after(async () => {
      live?.close();
      await s?.server.close();
    });

    it('summary — every kind of record; expired and provisioned ones left out, with why', () => {
      assert.deepEqual(first.lines(false), sourceSummary);
    });

    it('a second run adds nothing', () => {
      assert.deepEqual(second.lines(false), [
        'users                   3 read, 0 added, 3 already there',
        'tiers                   1 read, 0 added, 1 already there',
        'groups                  2 read, 0 added, 2 already there',
        'group members           3 read, 0 added, 1 provisioned (server.yml makes them at the start), 1 from a proxy header or single sign-on (made again at the next sign-in), 1 already there',
        'access entries          5 read, 0 added, 1 provisioned (server.yml makes them at the start), 4 already there',
        'reservations            1 read, 0 added, 1 already there',
        'tokens                  2 read, 0 added, 1 provisioned (server.yml makes them at the start), 1 already there',
        'phone numbers           1 read, 0 added, 1 already there',
        'messages                8 read, 0 added, 1 expired, 7 already there',
        'attachment files        1 read, 0 added, 1 already there',
        'web push subscriptions  1 read, 0 added, 1 already there',
      ]);
    });

    it('messages — since=all gives what the old server gave, in its order, field for field', async () => {
      for (const topic of topics) assert.deepEqual(await poll(s.url, topic, 'since=all&scheduled=1', { Authorization: ben }), source.polls[topic], topic);
      const alerts = await poll(s.url, 'alerts', 'since=all&scheduled=1');
      assert.deepEqual(ids(alerts), [...source.alerts, source.scheduled.id]);
      assert.deepEqual(
        [alerts[0]?.title, alerts[0]?.tags, alerts[0]?.priority, alerts[1]?.content_type, alerts[1]?.click, alerts[2]?.sequence_id],
        ['Disk full', ['warning', 'skull'], 5, 'text/markdown', 'https://home.example.com/cam', 'disk-sda1'],
      );
      assert.deepEqual((alerts[1]?.actions as Json[]).map((a) => [a.action, a.label, a.url]), [['view', 'Open portal', 'https://home.example.com']]);
      assert.deepEqual(ids(await poll(s.url, 'alerts', 'since=all')), source.alerts, 'the scheduled one waits');
      assert.equal((await poll(s.url, 'alerts', 'since=all')).some((m) => m.id === 'expired00001'), false, 'expired: left out');
    });

    it('since=<id> — exactly what followed it, then what the target publishes', async () => {
      assert.deepEqual(ids(await poll(s.url, 'alerts', `since=${source.alerts[0]}`)), source.alerts.slice(1));
      assert.deepEqual(await poll(s.url, 'alerts', `since=${source.alerts[2]}`), []);
      const { json: fresh } = await publish(`${s.url}/alerts`, 'after the move');
      assert.deepEqual(ids(await poll(s.url, 'alerts', `since=${source.alerts[2]}`)), [fresh.id]);
      assert.deepEqual(ids(await poll(s.url, 'alerts', `since=${source.alerts[1]}`)), [source.alerts[2], fresh.id]);
      assert.equal((await live.nextJson()).id, fresh.id);
    });

    it('accounts — users, tier, tokens, entries, groups, phone number as kept; old password and token log in; provisioning made again', async () => {
      // Read before any login: a login by token updates its last use.
      const auth = s.server.context.access!.store;
      assert.deepEqual(await auth.tokens('ben'), source.held.benTokens, 'label, expiry and last use');
      assert.equal(source.held.benTokens[0]?.label, 'backups');
      assert.ok((source.held.benTokens[0]?.lastAccess ?? 0) > 0, 'the source used it');
      const users = await auth.users();
      assert.deepEqual(users.map((u) => [u.name, u.role, u.hash, u.syncTopic, u.prefs, u.tier?.code]), source.held.users.map((u) => [u.name, u.role, u.hash, u.syncTopic, u.prefs, u.tier?.code]));
      assert.deepEqual(users.map((u) => u.name), ['phil', 'ben', 'ops']);
      assert.deepEqual(await auth.tier('pro'), pro);
      assert.deepEqual(await auth.phoneNumbers('ben'), ['+15551234567']);
      assert.deepEqual(await auth.grants('ben'), [
        { topic: 'ben-private', permission: { read: true, write: true } },
        { topic: 'backups', permission: { read: true, write: true } },
      ]);
      assert.equal((await auth.user('ops'))?.provisioned, true, "the target's server.yml provisioned the imported user again");
      assert.deepEqual(await auth.groups(), [
        { name: 'oncall', members: ['ops'], provisioned: true },
        { name: 'ops-team', members: ['ben'], provisioned: false },
      ], "the CLI's group with its member, the provisioned one made so again; the proxy's membership left to the proxy");
      assert.deepEqual(await auth.grants('*ops-team'), [{ topic: 'deploys', permission: { read: true, write: true } }]);
      assert.deepEqual(await auth.grants('*oncall'), [{ topic: 'pager-*', permission: { read: true, write: false } }], "the CLI's entry for a provisioned group");

      const [byPassword, byToken] = await Promise.all([ben, `Bearer ${source.benToken}`].map((a) => fetch(`${s.url}/v1/account`, { headers: { Authorization: a } })));
      assert.deepEqual([byPassword?.status, byToken?.status], [200, 200]);
      const account = (await byToken!.json()) as Json;
      assert.deepEqual([account.username, account.tier, account.language, account.reservations], ['ben', { code: 'pro', name: 'Pro' }, 'de', [{ topic: 'ben-private', everyone: 'deny-all' }]]);
      assert.deepEqual(account.subscriptions, [{ base_url: 'http://tocsin.example', topic: 'alerts', display_name: 'Alerts' }]);
      assert.equal((await fetch(`${s.url}/v1/account`, { headers: { Authorization: basic('ben', 'wrong') } })).status, 401);
      assert.equal((await fetch(`${s.url}/ben-private/json?poll=1`)).status, 403, "ben's reservation keeps others out");
      assert.equal((await fetch(`${s.url}/announcements`, { method: 'POST', body: 'x' })).status, 403, "everyone's read-only entry");
      const ops = await fetch(`${s.url}/v1/account`, { headers: { Authorization: `Bearer ${source.opsToken}` } });
      assert.equal(((await ops.json()) as Json).username, 'ops', "the target's server.yml made the provisioned token again");
    });

    it('attachments — the file downloads byte for byte, counted against the same owner', async () => {
      const res = await fetch(`${s.url}/file/${source.photo.id}.png`);
      assert.equal(res.status, 200);
      assert.deepEqual(Buffer.from(await res.arrayBuffer()), source.photo.bytes);
      const attachments = s.server.context.attachments!;
      assert.deepEqual(await attachments.stat(source.photo.id), source.photo.stored);
      assert.equal(await attachments.usage(source.photo.stored.owner), source.photo.bytes.length);
    });

    it('web push and stats — the subscription as it was; the published total carries on', async () => {
      assert.deepEqual(await s.server.context.webPush!.store.forTopic('weather'), source.held.webPush);
      assert.equal(source.held.publishedTotal, 11, "the source counted 7 publishes and the account API's 4 sync notices");
      assert.equal(statsAtStart, source.held.publishedTotal);
    });

    it('the scheduled message is delivered once, at its time', async () => {
      let message: Json;
      do message = await live.nextJson(scheduledIn * 1000 + 10_000);
      while (message.event !== 'message');
      const arrived = Date.now() / 1000;
      assert.deepEqual([message.id, message.time, message.title], [source.scheduled.id, source.scheduled.time, 'Later']);
      assert.ok(arrived >= source.scheduled.time, `arrived at ${arrived}, due at ${source.scheduled.time}`);
      const { json: marker } = await publish(`${s.url}/alerts`, 'after the scheduled one');
      do message = await live.nextJson();
      while (message.event !== 'message');
      assert.equal(message.id, marker.id, 'no second delivery before the next message');
      const delivered = (await poll(s.url, 'alerts', 'since=all')).filter((m) => m.id === source.scheduled.id);
      assert.equal(delivered.length, 1);
    });
  });
}
