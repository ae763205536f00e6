import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import bcrypt from 'bcryptjs';
import { ConfigError, loadConfig } from '../../src/config/load.js';
import type { RawValues } from '../../src/config/load.js';
import { apiCall, basic, statusAndCode } from '../support/account-api.js';
import { LineStream, WsStream } from '../support/clients.js';
import { startTestServer, tempDir, type TestServer } from '../support/server.js';

/** Trusted proxy header authentication (issue 38 item 1): auth-user-header from proxy-trusted-hosts only. */

const hash = bcrypt.hashSync('secret', 4);
const as = (user: string): Record<string, string> => ({ 'X-Forwarded-User': user });

/** A server behind a proxy at `trusted`, with phil provisioned and allowed only on phil-only. */
function proxied(trusted: string, extra: RawValues = {}): Promise<TestServer> {
  return startTestServer({
    'auth-file': join(tempDir(), 'auth.db'),
    'auth-default-access': 'deny-all',
    'auth-users': [`phil:${hash}:user`],
    'auth-access': ['phil:phil-only:rw'],
    'behind-proxy': true,
    'proxy-trusted-hosts': [trusted],
    'auth-user-header': 'X-Forwarded-User',
    'auth-logout-url': 'https://sso.example.com/logout',
    ...extra,
  });
}

/** A publish's status and, for an error, its ntfy code. */
async function publish(s: TestServer, topic: string, headers: Record<string, string>): Promise<[number, unknown]> {
  const [status, json] = await apiCall(s.url, 'POST', `/${topic}`, undefined, 'hi', headers);
  return [status, json.code];
}

describe('proxy auth — the header from a trusted proxy names the user', () => {
  let s: TestServer;
  before(async () => {
    s = await proxied('127.0.0.1');
  });
  after(() => s.server.close());

  it('publishes as the named user to a topic only they may write; without the header, anonymous is refused', async () => {
    const [status, json] = await apiCall(s.url, 'POST', '/phil-only', undefined, 'from phil', as('phil'));
    assert.equal(status, 200);
    assert.equal(json.message, 'from phil');
    assert.deepEqual(await publish(s, 'phil-only', {}), [403, 40301]);
    assert.deepEqual(await publish(s, 'phil-only', as('ben')), [401, 40101], 'an unknown user without auto-create');
  });

  it('subscribes as the named user over WebSocket, JSON, SSE and raw', async () => {
    const ws = new WsStream(`${s.url}/phil-only/ws`, as('phil'));
    assert.equal((await ws.next()).event, 'open');
    const streams = ['json', 'sse', 'raw'].map((format) => new LineStream(`${s.url}/phil-only/${format}`, { headers: as('phil') }));
    assert.deepEqual(await Promise.all(streams.map(async (stream) => (await stream.response).status)), [200, 200, 200]);
    await publish(s, 'phil-only', as('phil'));
    const frame = await ws.next();
    assert.deepEqual([frame.event, frame.message], ['message', 'hi']);
    ws.close();
    for (const stream of streams) stream.close();
    assert.equal((await fetch(`${s.url}/phil-only/json?poll=1`)).status, 403);
  });

  it('the account API answers the proxied user and makes them tokens, and /v1/config tells the web app where logout goes', async () => {
    const [, account] = await apiCall(s.url, 'GET', '/v1/account', undefined, undefined, as('phil'));
    assert.deepEqual([account.username, account.role], ['phil', 'user']);
    const [status, made] = await apiCall(s.url, 'POST', '/v1/account/token', undefined, { label: 'cli' }, as('phil'));
    assert.equal(status, 200);
    assert.deepEqual(await publish(s, 'phil-only', { Authorization: `Bearer ${String(made.token)}` }), [200, undefined], 'a token the proxied user made works without the proxy');
    const [, config] = await apiCall(s.url, 'GET', '/v1/config');
    assert.equal(config.auth_logout_url, 'https://sso.example.com/logout');
    const script = await (await fetch(`${s.url}/config.js`)).text();
    assert.match(script, /"auth_logout_url": "https:\/\/sso\.example\.com\/logout"/);
  });

  it('an absent or empty header falls back to the Authorization header, or anonymous', async () => {
    assert.deepEqual(await publish(s, 'phil-only', { Authorization: basic('phil') }), [200, undefined]);
    assert.deepEqual(await publish(s, 'phil-only', { 'X-Forwarded-User': '', Authorization: basic('phil') }), [200, undefined]);
    const [, account] = await apiCall(s.url, 'GET', '/v1/account');
    assert.equal(account.username, '*');
  });

  it('bad user names are 401 40101: too long, or characters no user name has', async () => {
    for (const name of ['p'.repeat(65), 'phil smith', 'phil/..', 'ph:il', '*']) {
      assert.deepEqual(await publish(s, 'phil-only', as(name)), [401, 40101], name);
    }
    assert.deepEqual(await publish(s, 'phil-only', as(' phil ')), [200, undefined], 'surrounding blanks are trimmed');
  });
});

describe('proxy auth — from any other peer the header is ignored', () => {
  let s: TestServer;
  before(async () => {
    s = await proxied('10.9.9.9');
  });
  after(() => s.server.close());

  it('a spoofed header is anonymous: refused where anonymous is, never the named user', async () => {
    assert.deepEqual(await publish(s, 'phil-only', as('phil')), [403, 40301]);
    const [, account] = await apiCall(s.url, 'GET', '/v1/account', undefined, undefined, as('phil'));
    assert.equal(account.username, '*');
    assert.equal((await fetch(`${s.url}/phil-only/json?poll=1`, { headers: as('phil') })).status, 403);
  });

  it('other credentials still count', async () => {
    assert.deepEqual(await publish(s, 'phil-only', { ...as('nobody'), Authorization: basic('phil') }), [200, undefined]);
  });
});

describe('proxy auth — auto-create', () => {
  let s: TestServer;
  before(async () => {
    s = await proxied('127.0.0.1', { 'auth-user-auto-create': true, 'auth-user-auto-create-access': 'read-only', 'visitor-account-creation-limit-burst': 3 });
  });
  after(() => s.server.close());

  it('makes an unknown user a plain user with the configured access to every topic, once however many requests race', async () => {
    const answers = await Promise.all([1, 2, 3, 4].map(() => apiCall(s.url, 'GET', '/v1/account', undefined, undefined, as('newbie'))));
    assert.deepEqual(answers.map(([status, json]) => [status, json.username, json.role]), Array(4).fill([200, 'newbie', 'user']));
    const store = s.server.context.access!.store;
    assert.deepEqual(await store.grants('newbie'), [{ topic: '*', permission: { read: true, write: false } }]);
    assert.equal((await fetch(`${s.url}/anything/json?poll=1`, { headers: as('newbie') })).status, 200);
    assert.deepEqual(await publish(s, 'anything', as('newbie')), [403, 40301]);
    const user = await store.user('newbie');
    assert.equal(await bcrypt.compare('', user!.hash), false, 'a random password, not an empty one');
  });

  it('is bounded by the sign-up limiter per client address (42906), which the racing requests above charged once', async () => {
    const statuses: [number, unknown][] = [];
    for (const name of ['second', 'third', 'fourth']) statuses.push(await statusAndCode(apiCall(s.url, 'GET', '/v1/account', undefined, undefined, as(name))));
    assert.deepEqual(statuses.map(([status, code]) => (status === 200 ? 200 : code)), [200, 200, 42906]);
    assert.equal(await s.server.context.access!.store.user('fourth'), undefined);
  });
});

describe('proxy auth — startup refuses a header no proxy list guards', () => {
  const base: RawValues = { 'auth-file': '/tmp/unused-auth.db', 'auth-user-header': 'X-Forwarded-User', 'behind-proxy': true, 'proxy-trusted-hosts': ['10.0.0.1'] };
  const refusal = (flags: RawValues): string => {
    try {
      loadConfig({ flags: { ...base, ...flags } });
    } catch (err) {
      assert.ok(err instanceof ConfigError);
      return err.message;
    }
    return 'loaded';
  };

  it('without proxy-trusted-hosts or behind-proxy, naming them', () => {
    const message = 'if auth-user-header is set, behind-proxy and proxy-trusted-hosts must also be set: the header is trusted only from the proxies listed there';
    assert.equal(refusal({ 'proxy-trusted-hosts': [] }), message);
    assert.equal(refusal({ 'behind-proxy': false }), message);
    assert.equal(refusal({}), 'loaded');
  });

  it('without auth-file, with a companion that needs another, or with a bad value', () => {
    assert.equal(refusal({ 'auth-file': '' }), 'if auth-user-header is set, auth-file must also be set');
    assert.equal(refusal({ 'auth-admin-group': 'admins' }), 'if auth-admin-group is set, auth-groups-header must also be set');
    assert.equal(refusal({ 'auth-user-auto-create-access': 'read-write' }), 'if auth-user-auto-create-access is set, auth-user-auto-create must also be set');
    assert.equal(refusal({ 'auth-user-auto-create': true, 'auth-user-auto-create-access': 'all' }), 'invalid value for auth-user-auto-create-access: "all" (must be read-write, read-only, write-only or deny-all)');
    assert.equal(refusal({ 'auth-user-header': 'X User' }), 'invalid value for auth-user-header: "X User" (must be a header name)');
  });
});
