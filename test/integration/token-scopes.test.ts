import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import bcrypt from 'bcryptjs';
import type { Json } from '../support/clients.js';
import { apiCall, basic, statusAndCode } from '../support/account-api.js';
import { startTestServer, tempDir, type TestServer } from '../support/server.js';

/** Topic-scoped tokens (issue 38, item 4): made through the account API, used on topics. */

const hash = bcrypt.hashSync('secret', 4);
const forbidden = { code: 40301, http: 403, error: 'forbidden', link: 'https://ntfy.sh/docs/publish/#authentication' };

let s: TestServer;
before(async () => {
  s = await startTestServer({
    'auth-file': join(tempDir(), 'auth.db'),
    'auth-default-access': 'deny-all',
    'auth-users': [`admin:${hash}:admin`, `phil:${hash}:user`],
    'auth-access': ['phil:deploys*:rw', 'phil:builds:rw'],
    'visitor-auth-failure-limit-burst': 100,
    'monitor-file': join(tempDir(), 'monitor.db'),
  });
});
after(() => s.server.close());

const call = (method: string, path: string, authorization?: string, body?: unknown): Promise<[number, Json]> => apiCall(s.url, method, path, authorization, body);

/** A new token of `user` with these scopes. */
async function scopedToken(user: string, scopes: unknown): Promise<string> {
  const [status, json] = await call('POST', '/v1/account/token', basic(user), { label: 'ci', scopes });
  assert.equal(status, 200, JSON.stringify(json));
  return json.token as string;
}

async function publish(topic: string, token: string): Promise<[number, unknown]> {
  const res = await fetch(`${s.url}/${topic}`, { method: 'POST', body: 'hi', headers: { Authorization: `Bearer ${token}` } });
  return [res.status, await res.json()];
}

async function poll(topic: string, token: string): Promise<[number, string]> {
  const res = await fetch(`${s.url}/${topic}/json?poll=1`, { headers: { Authorization: `Bearer ${token}` } });
  return [res.status, await res.text()];
}

describe('token scopes — what a scoped token may do', () => {
  it('a write-only scope publishes to its topic and nothing else, with ntfy 403 JSON', async () => {
    // given a token of phil's limited to writing deploys
    const token = await scopedToken('phil', [{ topic: 'deploys', permission: 'write-only' }]);
    // then it publishes there, and is refused reading it and writing builds, which phil may
    assert.equal((await publish('deploys', token))[0], 200);
    assert.deepEqual(await poll('deploys', token), [403, `${JSON.stringify(forbidden)}\n`]);
    assert.deepEqual(await publish('builds', token), [403, forbidden]);
    assert.deepEqual(await publish('deploys-prod', token), [403, forbidden], 'an exact scope covers no other topic');
  });

  it('never allows more than its user: a scope on a topic the user may not use is refused', async () => {
    const token = await scopedToken('phil', [{ topic: 'secret', permission: 'rw' }, { topic: 'deploys*', permission: 'rw' }]);
    assert.deepEqual(await publish('secret', token), [403, forbidden]);
    assert.equal((await publish('deploys-staging', token))[0], 200);
  });

  it('the most specific scope decides, as access entries are decided', async () => {
    const token = await scopedToken('phil', [{ topic: 'deploys*', permission: 'rw' }, { topic: 'deploys-prod', permission: 'ro' }]);
    assert.deepEqual(await publish('deploys-prod', token), [403, forbidden]);
    assert.equal((await poll('deploys-prod', token))[0], 200);
    assert.equal((await publish('deploys-test', token))[0], 200);
  });

  it("limits an admin's token too", async () => {
    const token = await scopedToken('admin', [{ topic: 'deploys', permission: 'ro' }]);
    assert.equal((await poll('deploys', token))[0], 200);
    assert.deepEqual(await publish('deploys', token), [403, forbidden]);
    assert.deepEqual(await publish('anything', token), [403, forbidden]);
  });

  it('may not use the account API, so it cannot make itself an unscoped token', async () => {
    const token = await scopedToken('phil', [{ topic: 'deploys', permission: 'rw' }]);
    assert.deepEqual(await call('POST', '/v1/account/token', `Bearer ${token}`, {}), [403, forbidden]);
    assert.deepEqual(await call('GET', '/v1/account', `Bearer ${token}`), [403, forbidden]);
    assert.deepEqual(await call('DELETE', '/v1/account/token', `Bearer ${token}`), [403, forbidden]);
  });

  it('GET /v1/account lists each token with its scopes; unscoped ones have none', async () => {
    const token = await scopedToken('phil', [{ topic: 'builds', permission: 'read' }, { topic: 'deploys*', permission: 'wo' }]);
    const [status, me] = await call('GET', '/v1/account', basic('phil'));
    assert.equal(status, 200);
    const listed = (me.tokens as Json[]).find((t) => t.token === token);
    assert.deepEqual(listed?.scopes, [{ topic: 'builds', permission: 'read-only' }, { topic: 'deploys*', permission: 'write-only' }]);
    const [, plain] = await call('POST', '/v1/account/token', basic('phil'), { label: 'plain' });
    assert.equal(plain.scopes, undefined);
    const [, again] = await call('GET', '/v1/account', basic('phil'));
    assert.equal((again.tokens as Json[]).find((t) => t.token === plain.token)?.scopes, undefined);
  });
});

describe('token scopes — heartbeat monitors', () => {
  it('a scoped token sees and pings only the monitors whose alert topic it may write', async () => {
    // given two monitors of phil's, alerting on deploys and on builds, and a token scoped to deploys
    for (const [key, topic] of [['deploy', 'deploys'], ['nightly', 'builds']]) {
      assert.equal((await call('POST', '/v1/monitors', basic('phil'), { key, period: 300, grace: 60, alert_topic: topic }))[0], 200);
    }
    const token = `Bearer ${await scopedToken('phil', [{ topic: 'deploys', permission: 'wo' }])}`;
    // then it lists and pings the deploys one only; the other is as good as another user's (40402)
    const [, list] = await call('GET', '/v1/monitors', token);
    assert.deepEqual((list.monitors as Json[]).map((m) => m.key), ['deploy']);
    assert.equal((await call('POST', '/v1/heartbeat/deploy', token))[1].state, 'up');
    for (const [method, path] of [['POST', '/v1/heartbeat/nightly'], ['GET', '/v1/monitors/nightly'], ['DELETE', '/v1/monitors/nightly'], ['PATCH', '/v1/monitors/nightly']]) {
      assert.deepEqual(await statusAndCode(call(method as string, path as string, token, method === 'PATCH' ? { grace: 30 } : undefined)), [404, 40402], `${method} ${path}`);
    }
    assert.deepEqual(await call('POST', '/v1/monitors', token, { key: 'sneaky', period: 300, grace: 60, alert_topic: 'builds' }), [403, forbidden]);
    const [, all] = await call('GET', '/v1/monitors', basic('phil'));
    assert.deepEqual((all.monitors as Json[]).map((m) => [m.key, m.state]), [['deploy', 'up'], ['nightly', 'pending']]);
  });
});

describe('token scopes — bad input', () => {
  it('answers each malformed scope list with its ntfy-style 400, and keeps serving', async () => {
    const many = Array.from({ length: 17 }, (_, i) => ({ topic: `t${i}`, permission: 'rw' }));
    const cases: [unknown, number][] = [
      [[{ topic: 'deploys', permission: 'sometimes' }], 40025],
      [[{ topic: 'bad topic!', permission: 'rw' }], 40009],
      [[{ topic: 'x'.repeat(65), permission: 'rw' }], 40009],
      [many, 40093],
      [[], 40093],
      ['deploys:wo', 40024],
      [[{ topic: 1, permission: 'rw' }], 40024],
      [[['deploys', 'rw']], 40024],
      [{ topic: 'deploys', permission: 'rw' }, 40024],
    ];
    const tokenCount = async (): Promise<number> => (((await call('GET', '/v1/account', basic('phil')))[1].tokens as Json[] | undefined) ?? []).length;
    const before = await tokenCount();
    for (const [scopes, code] of cases) {
      assert.deepEqual(await statusAndCode(call('POST', '/v1/account/token', basic('phil'), { scopes })), [400, code], JSON.stringify(scopes));
    }
    assert.equal(await tokenCount(), before, 'no token made by a refused request');
  });

  it('a 17-scope error names the bound', async () => {
    const many = Array.from({ length: 17 }, (_, i) => ({ topic: `t${i}`, permission: 'rw' }));
    const [status, json] = await call('POST', '/v1/account/token', basic('phil'), { scopes: many });
    assert.deepEqual([status, json], [400, { code: 40093, http: 400, error: 'invalid request: token scopes must list 1 to 16 topics' }]);
  });
});
