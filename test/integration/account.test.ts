import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import bcrypt from 'bcryptjs';
import { tokenPattern } from '../../src/model/access.js';
import { LineStream, type Json } from '../support/clients.js';
import { apiCall, basic, statusAndCode } from '../support/account-api.js';
import { startTestServer, tempDir, type TestServer } from '../support/server.js';

/** The account API (ntfy's /v1/account and /v1/users), as its web app and mobile apps call it. */

const hash = bcrypt.hashSync('secret', 4);

let s: TestServer;
before(async () => {
  s = await startTestServer({
    'auth-file': join(tempDir(), 'auth.db'),
    'auth-default-access': 'deny-all',
    'auth-users': [`admin:${hash}:admin`, `phil:${hash}:user`],
    'auth-access': ['*:public:ro'],
    'enable-login': true,
    'enable-signup': true,
    'enable-reservations': true,
    'visitor-account-creation-limit-burst': 20,
    'visitor-auth-failure-limit-burst': 100,
    'visitor-message-daily-limit': 500,
    'visitor-attachment-daily-bandwidth-limit': '200M',
  });
});
after(() => s.server.close());

const call = (method: string, path: string, authorization?: string, body?: unknown, headers?: Record<string, string>): Promise<[number, Json]> =>
  apiCall(s.url, method, path, authorization, body, headers);

const code = statusAndCode;

describe('account API — sign-up, login, password', () => {
  it('signs up, logs in with Basic for a token, and uses the token', async () => {
    assert.deepEqual(await call('POST', '/v1/account', undefined, { username: 'ben', password: 'pw1' }), [200, { success: true }]);
    assert.deepEqual(await code(call('POST', '/v1/account', undefined, { username: 'ben', password: 'x' })), [409, 40901]);
    assert.deepEqual(await code(call('POST', '/v1/account', undefined, { username: 'bad name', password: 'x' })), [400, 40046]);
    assert.deepEqual(await code(call('POST', '/v1/account', basic('ben', 'pw1'), { username: 'other', password: 'x' })), [401, 40101], 'not from a user');
    const [status, token] = await call('POST', '/v1/account/token', basic('ben', 'pw1'), { label: 'phone' });
    assert.equal(status, 200);
    assert.match(token.token as string, tokenPattern);
    assert.equal(token.label, 'phone');
    assert.ok(Math.abs((token.expires as number) - (Date.now() / 1000 + 72 * 3600)) < 5, 'expires in 72 hours');
    const [, me] = await call('GET', '/v1/account', `Bearer ${token.token as string}`);
    assert.equal(me.username, 'ben');
    assert.equal(me.role, 'user');
    assert.match(me.sync_topic as string, /^st_[a-z0-9]{16}$/);
    assert.deepEqual((me.tokens as Json[]).map((t) => t.label), ['phone']);
  });

  it('tells anonymous visitors their limits, from server.yml', async () => {
    const [status, me] = await call('GET', '/v1/account');
    assert.equal(status, 200);
    assert.equal(me.username, '*');
    assert.equal(me.role, 'anonymous');
    assert.deepEqual(me.limits, {
      basis: 'ip', messages: 500, messages_expiry_duration: 43_200, emails: 24, calls: 0, reservations: 0,
      attachment_total_size: 104_857_600, attachment_file_size: 15_728_640, attachment_expiry_duration: 10_800, attachment_bandwidth: 209_715_200,
    });
    assert.equal((me.stats as Json).messages_remaining, 500);
  });

  it('changes the password only with the current one; the old one stops working at once', async () => {
    await call('POST', '/v1/account', undefined, { username: 'carl', password: 'old' });
    assert.equal((await call('GET', '/v1/account', basic('carl', 'old')))[0], 200, 'verified once, now cached');
    assert.deepEqual(await code(call('POST', '/v1/account/password', basic('carl', 'old'), { password: 'wrong', new_password: 'new' })), [400, 40026]);
    assert.deepEqual(await code(call('POST', '/v1/account/password', basic('carl', 'old'), { password: 'old' })), [400, 40000]);
    assert.deepEqual(await call('POST', '/v1/account/password', basic('carl', 'old'), { password: 'old', new_password: 'new' }), [200, { success: true }]);
    assert.deepEqual(await code(call('GET', '/v1/account', basic('carl', 'old'))), [401, 40101], 'the cached check is gone with the hash');
    assert.equal((await call('GET', '/v1/account', basic('carl', 'new')))[0], 200);
  });

  it('users from server.yml cannot change their password or delete themselves (409)', async () => {
    assert.deepEqual(await code(call('POST', '/v1/account/password', basic('phil'), { password: 'secret', new_password: 'x' })), [409, 40905]);
    assert.deepEqual(await code(call('DELETE', '/v1/account', basic('phil'), { password: 'secret' })), [409, 40905]);
    assert.deepEqual(await code(call('PUT', '/v1/users', basic('admin'), { username: 'phil', password: 'x' })), [409, 40905]);
    assert.equal((await call('GET', '/v1/account', basic('phil')))[0], 200, 'unchanged');
  });

  it('deletes the account with the password confirmed', async () => {
    await call('POST', '/v1/account', undefined, { username: 'dora', password: 'pw' });
    assert.deepEqual(await code(call('DELETE', '/v1/account', basic('dora', 'pw'), { password: 'nope' })), [400, 40026]);
    assert.deepEqual(await call('DELETE', '/v1/account', basic('dora', 'pw'), { password: 'pw' }), [200, { success: true }]);
    assert.deepEqual(await code(call('GET', '/v1/account', basic('dora', 'pw'))), [401, 40101]);
  });

  it('refuses bad bodies and unauthenticated calls', async () => {
    assert.deepEqual(await code(call('POST', '/v1/account/password', basic('phil'), '{not json')), [400, 40024]);
    assert.deepEqual(await code(call('POST', '/v1/account/password', basic('phil'), '[1,2]')), [400, 40024]);
    assert.deepEqual(await code(call('PATCH', '/v1/account/settings', basic('phil'), { language: 7 })), [400, 40024]);
    assert.deepEqual(await code(call('PATCH', '/v1/account/settings', basic('phil'), 'x'.repeat(40_000))), [413, 41303]);
    assert.deepEqual(await code(call('PATCH', '/v1/account/settings', undefined, { language: 'de' })), [401, 40101]);
    assert.deepEqual(await code(call('DELETE', '/v1/account/token', basic('phil'))), [400, 40023], 'Basic login has no token to log out');
  });
});

describe('account API — tokens, settings, subscriptions', () => {
  it('updates, extends and deletes tokens; logging out deletes the token in use', async () => {
    const [, made] = await call('POST', '/v1/account/token', basic('phil'), '');
    const token = made.token as string;
    const [, relabelled] = await call('PATCH', '/v1/account/token', basic('phil'), { token, label: 'ci', expires: 4_000_000_000 });
    assert.deepEqual([relabelled.label, relabelled.expires], ['ci', 4_000_000_000]);
    const [, extended] = await call('PATCH', '/v1/account/token', `Bearer ${token}`, {});
    assert.ok(Math.abs((extended.expires as number) - (Date.now() / 1000 + 72 * 3600)) < 5, 'its own token, extended by 72 h');
    assert.deepEqual(await code(call('PATCH', '/v1/account/token', basic('phil'), { token: 'tk_unknownunknownunknownunknown1' })), [404, 40401]);
    assert.deepEqual(await call('DELETE', '/v1/account/token', `Bearer ${token}`), [200, { success: true }]);
    assert.deepEqual(await code(call('GET', '/v1/account', `Bearer ${token}`)), [401, 40101]);
    const [, other] = await call('POST', '/v1/account/token', basic('phil'), { expires: 1 });
    assert.deepEqual(await code(call('GET', '/v1/account', `Bearer ${other.token as string}`)), [401, 40101], 'an expired token is refused');
    assert.deepEqual(await call('DELETE', '/v1/account/token', basic('phil'), undefined, { 'X-Token': other.token as string }), [200, { success: true }]);
  });

  it('merges settings and keeps subscriptions of the web app, nudging the sync topic on each change', async () => {
    const [, me] = await call('GET', '/v1/account', basic('phil'));
    const sync = new LineStream(`${s.url}/${me.sync_topic as string}/json`, { headers: { Authorization: basic('phil') } });
    await sync.next(); // open
    assert.deepEqual(await call('PATCH', '/v1/account/settings', basic('phil'), { language: 'de', notification: { sound: 'ding', min_priority: 3 } }), [200, { success: true }]);
    assert.equal((JSON.parse(await sync.next()) as Json).message, '{"event":"sync"}');
    await call('PATCH', '/v1/account/settings', basic('phil'), { notification: { delete_after: 86400 } });
    const sub = { base_url: 'https://ntfy.example.com', topic: 'alerts', display_name: null };
    assert.deepEqual(await call('POST', '/v1/account/subscription', basic('phil'), sub), [200, sub]);
    assert.deepEqual(await code(call('POST', '/v1/account/subscription', basic('phil'), sub)), [409, 40903]);
    const renamed = { ...sub, display_name: 'Alerts' };
    assert.deepEqual(await call('PATCH', '/v1/account/subscription', basic('phil'), renamed), [200, renamed]);
    assert.deepEqual(await code(call('PATCH', '/v1/account/subscription', basic('phil'), { ...renamed, topic: 'none' })), [404, 40401]);
    const [, after1] = await call('GET', '/v1/account', basic('phil'));
    assert.equal(after1.language, 'de');
    assert.deepEqual(after1.notification, { sound: 'ding', min_priority: 3, delete_after: 86400 });
    assert.deepEqual(after1.subscriptions, [renamed]);
    const headers = { 'X-BaseURL': sub.base_url, 'X-Topic': sub.topic };
    assert.deepEqual(await call('DELETE', '/v1/account/subscription', basic('phil'), undefined, headers), [200, { success: true }]);
    assert.equal((await call('GET', '/v1/account', basic('phil')))[1].subscriptions, undefined);
    sync.close();
  });
});

describe('account API — token limit', () => {
  it('70 logins leave the 60 newest tokens (ntfy\'s tokenMaxCount); the oldest stop working', async () => {
    await call('POST', '/v1/users', basic('admin'), { username: 'many', password: 'pw' });
    const tokens: string[] = [];
    for (let i = 0; i < 70; i++) {
      const [status, token] = await call('POST', '/v1/account/token', basic('many', 'pw'), { label: `login ${i}` });
      assert.equal(status, 200);
      tokens.push(token.token as string);
    }
    const [, me] = await call('GET', '/v1/account', basic('many', 'pw'));
    const listed = (me.tokens as Json[]).map((t) => t.token as string);
    assert.equal(listed.length, 60);
    assert.deepEqual(new Set(listed), new Set(tokens.slice(10)), 'logins of the same second: the earlier ones went');
    assert.deepEqual(await code(call('GET', '/v1/account', `Bearer ${tokens[0] as string}`)), [401, 40101]);
    assert.equal((await call('GET', '/v1/account', `Bearer ${tokens[69] as string}`))[0], 200);
  });
});

describe("account API — a tier's message expiry", () => {
  it("a user on a tier publishes messages that expire after the tier's duration, as ntfy's; others after cache-duration", async () => {
    const store = s.server.context.access!.store;
    await store.putTier({ code: 'day', name: 'Day', messageLimit: 1000, messageExpiryDuration: 86_400, emailLimit: 10, callLimit: 0, reservationLimit: 0,
      attachmentFileSizeLimit: 1_000_000, attachmentTotalSizeLimit: 10_000_000, attachmentExpiryDuration: 3600, attachmentBandwidthLimit: 100_000_000 }, false);
    await call('POST', '/v1/account', undefined, { username: 'tess', password: 'pw' });
    await store.changeTier('tess', 'day');
    await store.allowAccess('*', 'lifetimes', { read: true, write: true });
    const lifetime = async (authorization: string): Promise<number> => {
      const json = (await (await fetch(`${s.url}/lifetimes`, { method: 'POST', body: 'm', headers: { Authorization: authorization } })).json()) as Json;
      return (json.expires as number) - (json.time as number);
    };
    assert.equal(await lifetime(basic('tess', 'pw')), 86_400);
    assert.equal(await lifetime(basic('phil')), 12 * 3600, 'no tier: cache-duration');
  });
});

describe('account API — reservations', () => {
  it('a user on a tier reserves topics up to the tier\'s limit; others get the chosen access', async () => {
    await call('POST', '/v1/account', undefined, { username: 'erin', password: 'pw' });
    const erin = basic('erin', 'pw');
    assert.deepEqual(await code(call('POST', '/v1/account/reservation', erin, { topic: 'erin-1', everyone: 'read-only' })), [401, 40101], 'no tier, no reservations');
    const store = s.server.context.access!.store;
    await store.putTier({ code: 'basic', name: 'Basic', messageLimit: 1000, messageExpiryDuration: 3600, emailLimit: 10, callLimit: 0, reservationLimit: 1,
      attachmentFileSizeLimit: 1_000_000, attachmentTotalSizeLimit: 10_000_000, attachmentExpiryDuration: 3600, attachmentBandwidthLimit: 100_000_000 }, false);
    await store.changeTier('erin', 'basic');
    assert.deepEqual(await code(call('POST', '/v1/account/reservation', erin, { topic: 'erin-1', everyone: 'bogus' })), [400, 40025]);
    assert.deepEqual(await code(call('POST', '/v1/account/reservation', erin, { topic: 'bad topic!', everyone: 'ro' })), [400, 40009]);
    assert.deepEqual(await call('POST', '/v1/account/reservation', erin, { topic: 'erin-1', everyone: 'read-only' }), [200, { success: true }]);
    assert.deepEqual(await call('POST', '/v1/account/reservation', erin, { topic: 'erin-1', everyone: 'deny-all' }), [200, { success: true }], 'changing her own is fine');
    assert.deepEqual(await code(call('POST', '/v1/account/reservation', erin, { topic: 'erin-2', everyone: 'ro' })), [429, 42907]);
    assert.deepEqual(await code(call('POST', '/v1/account/reservation', basic('admin'), { topic: 'erin-1', everyone: 'rw' })), [409, 40902]);
    assert.deepEqual(await code(call('POST', '/v1/account/reservation', erin, { topic: 'public', everyone: 'rw' })), [409, 40902], 'everyone\'s entry covers it');
    const [, me] = await call('GET', '/v1/account', erin);
    assert.deepEqual(me.reservations, [{ topic: 'erin-1', everyone: 'deny-all' }]);
    assert.deepEqual(me.tier, { code: 'basic', name: 'Basic' });
    assert.deepEqual([(me.limits as Json).basis, (me.limits as Json).reservations, (me.stats as Json).reservations_remaining], ['tier', 1, 0]);
    assert.equal((await fetch(`${s.url}/erin-1`, { method: 'POST', body: 'mine', headers: { Authorization: erin } })).status, 200);
    assert.equal((await fetch(`${s.url}/erin-1`, { method: 'POST', body: 'not yours', headers: { Authorization: basic('phil') } })).status, 403);
    assert.deepEqual(await code(call('DELETE', '/v1/account/reservation/erin-1', basic('phil'))), [401, 40101]);
    assert.deepEqual(await call('DELETE', '/v1/account/reservation/erin-1', erin), [200, { success: true }]);
    assert.equal((await call('GET', '/v1/account', erin))[1].reservations, undefined);
  });
});

describe('admin API', () => {
  it('lists, adds, updates and removes users and their access; only admins may', async () => {
    assert.deepEqual(await code(call('GET', '/v1/users', basic('phil'))), [401, 40101]);
    assert.deepEqual(await call('POST', '/v1/users', basic('admin'), { username: 'fred', password: 'pw', tier: 'basic' }), [200, { success: true }]);
    assert.deepEqual(await code(call('POST', '/v1/users', basic('admin'), { username: 'fred', password: 'pw' })), [409, 40901]);
    assert.deepEqual(await code(call('POST', '/v1/users', basic('admin'), { username: 'greta' })), [400, 40000]);
    assert.deepEqual(await code(call('POST', '/v1/users', basic('admin'), { username: 'greta', password: 'x', tier: 'gold' })), [400, 40030]);
    assert.deepEqual(await call('PUT', '/v1/users', basic('admin'), { username: 'greta', hash }), [200, { success: true }], 'PUT adds a missing user');
    assert.equal((await call('GET', '/v1/account', basic('greta')))[0], 200, 'with the given bcrypt hash');
    assert.deepEqual(await call('PUT', '/v1/users', basic('admin'), { username: 'fred', password: 'changed' }), [200, { success: true }]);
    assert.equal((await call('GET', '/v1/account', basic('fred', 'changed')))[0], 200);
    assert.deepEqual(await code(call('PUT', '/v1/users', basic('admin'), { username: 'admin', password: 'x' })), [403, 40301]);
    assert.deepEqual(await code(call('PUT', '/v1/users/access', basic('admin'), { username: 'fred', topic: 'ops*', permission: 'nope' })), [400, 40025]);
    assert.deepEqual(await code(call('PUT', '/v1/users/access', basic('admin'), { username: 'ghost', topic: 'ops*', permission: 'rw' })), [400, 40031]);
    assert.deepEqual(await call('PUT', '/v1/users/access', basic('admin'), { username: 'fred', topic: 'ops*', permission: 'ro' }), [200, { success: true }]);
    const [, users] = await call('GET', '/v1/users', basic('admin'));
    const fred = (users as unknown as Json[]).find((u) => u.username === 'fred');
    assert.deepEqual(fred, { username: 'fred', role: 'user', tier: 'basic', grants: [{ topic: 'ops*', permission: 'read-only' }] });
    assert.equal((await fetch(`${s.url}/ops-db/json?poll=1`, { headers: { Authorization: basic('fred', 'changed') } })).status, 200);
    assert.deepEqual(await call('DELETE', '/v1/users/access', basic('admin'), { username: 'fred', topic: 'ops*' }), [200, { success: true }]);
    assert.equal((await fetch(`${s.url}/ops-db/json?poll=1`, { headers: { Authorization: basic('fred', 'changed') } })).status, 403);
    assert.deepEqual(await code(call('DELETE', '/v1/users', basic('admin'), { username: 'admin' })), [401, 40101]);
    assert.deepEqual(await code(call('DELETE', '/v1/users', basic('admin'), { username: 'ghost' })), [400, 40031]);
    assert.deepEqual(await call('DELETE', '/v1/users', basic('admin'), { username: 'fred' }), [200, { success: true }]);
    assert.deepEqual(await code(call('GET', '/v1/account', basic('fred', 'changed'))), [401, 40101]);
  });
});

describe('admin API — the anonymous user', () => {
  it('GET /v1/users lists `*` last, role anonymous, with everyone\'s entries; PUT/DELETE /v1/users/access change them', async () => {
    const t = await startTestServer({
      'auth-file': join(tempDir(), 'auth.db'),
      'auth-users': [`zed:${hash}:admin`, `ben:${hash}:user`],
      'auth-access': ['ben:ops:rw'],
    });
    after(() => t.server.close());
    const admin = async (method: string, path: string, body?: unknown): Promise<[number, unknown]> => {
      const res = await fetch(`${t.url}${path}`, { method, headers: { Authorization: basic('zed') }, ...(body !== undefined && { body: JSON.stringify(body) }) });
      return [res.status, await res.json()];
    };
    const ben = { username: 'ben', role: 'user', grants: [{ topic: 'ops', permission: 'read-write' }] };
    assert.deepEqual(await admin('GET', '/v1/users'), [200, [{ username: 'zed', role: 'admin' }, ben, { username: '*', role: 'anonymous' }]], 'no grants: none listed');
    assert.deepEqual(await admin('PUT', '/v1/users/access', { username: '*', topic: 'announce*', permission: 'ro' }), [200, { success: true }]);
    assert.deepEqual(await admin('PUT', '/v1/users/access', { username: '*', topic: 'up*', permission: 'wo' }), [200, { success: true }]);
    const anonymous = { username: '*', role: 'anonymous', grants: [{ topic: 'announce*', permission: 'read-only' }, { topic: 'up*', permission: 'write-only' }] };
    assert.deepEqual(await admin('GET', '/v1/users'), [200, [{ username: 'zed', role: 'admin' }, ben, anonymous]]);
    assert.equal((await fetch(`${t.url}/announce-x/json?poll=1`)).status, 200, 'the entry applies to anonymous visitors');
    assert.deepEqual(await admin('DELETE', '/v1/users/access', { username: '*', topic: 'up*' }), [200, { success: true }]);
    const [, after1] = await admin('GET', '/v1/users');
    assert.deepEqual((after1 as Json[])[2], { username: '*', role: 'anonymous', grants: [{ topic: 'announce*', permission: 'read-only' }] });
    const [status, refused] = await admin('DELETE', '/v1/users', { username: '*' });
    assert.deepEqual([status, (refused as Json).code], [401, 40101], 'only regular users can be removed, as ntfy');
  });
});

describe('GET /v1/version (ntfy 2.17)', () => {
  it('answers admins the version, commit and build date; anonymous visitors and users 401/40101', async () => {
    const [status, version] = await call('GET', '/v1/version', basic('admin'));
    assert.equal(status, 200);
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
    assert.deepEqual(Object.keys(version), ['version', 'commit', 'date']);
    assert.equal(version.version, pkg.version);
    assert.match(version.commit as string, /^([0-9a-f]{40}|unknown)$/);
    assert.ok(version.date === 'unknown' || !Number.isNaN(Date.parse(version.date as string)), String(version.date));
    assert.deepEqual(await code(call('GET', '/v1/version')), [401, 40101]);
    assert.deepEqual(await code(call('GET', '/v1/version', basic('phil'))), [401, 40101]);
    assert.deepEqual(await code(call('GET', '/v1/version', basic('admin', 'wrong'))), [401, 40101]);
  });

  it('without an auth-file there is no admin: 401/40101', async () => {
    const t = await startTestServer();
    after(() => t.server.close());
    assert.deepEqual(await code(apiCall(t.url, 'GET', '/v1/version')), [401, 40101]);
  });
});

describe('web app config', () => {
  it('GET /v1/config and /config.js tell the web app which account features exist', async () => {
    const [status, config] = await call('GET', '/v1/config');
    assert.equal(status, 200);
    assert.deepEqual([config.enable_login, config.require_login, config.enable_signup, config.enable_reservations, config.enable_payments, config.enable_reset_password], [true, false, true, true, false, false]);
    assert.equal((await fetch(`${s.url}/v1/config`)).headers.get('cache-control'), 'no-cache');
    assert.equal(config.config_hash, s.server.context.config.configHash);
    const script = await fetch(`${s.url}/config.js`);
    assert.equal(script.headers.get('content-type'), 'text/javascript');
    const text = await script.text();
    assert.ok(text.startsWith('// Generated server configuration\nvar config = {'), text);
    assert.deepEqual(JSON.parse(text.slice(text.indexOf('{'), text.lastIndexOf(';'))), config);
  });

  it('require-login (ntfy 2.15) is told to the web app in both; the API stays governed by the access entries', async () => {
    const t = await startTestServer({ 'auth-file': join(tempDir(), 'auth.db'), 'enable-login': true, 'require-login': true, 'auth-access': ['*:open:rw'] });
    after(() => t.server.close());
    const json = (await (await fetch(`${t.url}/v1/config`)).json()) as Json;
    assert.equal(json.require_login, true);
    const text = await (await fetch(`${t.url}/config.js`)).text();
    assert.match(text, /"require_login": true/);
    const published = await fetch(`${t.url}/open`, { method: 'POST', body: 'anonymous still publishes where the entries allow' });
    assert.equal(published.status, 200);
  });
});

describe('limits on logins and sign-ups', () => {
  it('stops an address after too many failed logins (42909), whatever credentials it sends next', async () => {
    const t = await startTestServer({
      'auth-file': join(tempDir(), 'auth.db'), 'auth-users': [`phil:${hash}:user`],
      'visitor-auth-failure-limit-burst': 3, 'visitor-auth-failure-limit-replenish': '1h',
    });
    after(() => t.server.close());
    const get = async (authorization: string): Promise<number> => (await fetch(`${t.url}/v1/account`, { headers: { Authorization: authorization } })).status;
    assert.deepEqual([await get(basic('phil', 'a')), await get(basic('phil', 'b')), await get('Bearer tk_nonononononononononononononono')], [401, 401, 401]);
    const blocked = await fetch(`${t.url}/v1/account`, { headers: { Authorization: basic('phil') } });
    assert.deepEqual([blocked.status, ((await blocked.json()) as Json).code], [429, 42909], 'even the right password');
    assert.equal((await fetch(`${t.url}/v1/account`)).status, 200, 'anonymous requests are not affected');
  });

  it('limits sign-ups per address (42906), and refuses them without enable-signup (40022)', async () => {
    const t = await startTestServer({
      'auth-file': join(tempDir(), 'auth.db'), 'auth-users': [`admin:${hash}:admin`], 'enable-login': true, 'enable-signup': true,
      'visitor-account-creation-limit-burst': 2,
    });
    after(() => t.server.close());
    const signUp = async (name: string, authorization?: string): Promise<[number, unknown]> => {
      const res = await fetch(`${t.url}/v1/account`, { method: 'POST', body: JSON.stringify({ username: name, password: 'pw' }), headers: authorization ? { Authorization: authorization } : {} });
      const json = (await res.json()) as Json;
      return [res.status, res.status === 200 ? json : json.code];
    };
    assert.deepEqual(await signUp('s1'), [200, { success: true }]);
    assert.deepEqual(await signUp('s1'), [409, 40901], 'a refused sign-up costs nothing');
    assert.deepEqual(await signUp('s2'), [200, { success: true }]);
    assert.deepEqual(await signUp('s3'), [429, 42906]);
    assert.deepEqual(await signUp('s3', basic('admin')), [200, { success: true }], 'admins are not limited');
    const closed = await startTestServer({ 'auth-file': join(tempDir(), 'auth.db') });
    after(() => closed.server.close());
    const res = await fetch(`${closed.url}/v1/account`, { method: 'POST', body: JSON.stringify({ username: 'x', password: 'y' }) });
    assert.deepEqual([res.status, ((await res.json()) as Json).code], [400, 40022]);
  });

  it('without an auth-file the account API is not there (404), as in ntfy', async () => {
    const open = await startTestServer();
    after(() => open.server.close());
    for (const [method, path] of [['GET', '/v1/account'], ['POST', '/v1/account/token'], ['GET', '/v1/users']]) {
      const res = await fetch(`${open.url}${path}`, { method });
      assert.deepEqual([res.status, ((await res.json()) as Json).code], [404, 40401], path);
    }
  });
});
