import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import bcrypt from 'bcryptjs';
import type { Json } from '../support/clients.js';
import { apiCall, basic, statusAndCode as code } from '../support/account-api.js';
import { startTestServer, tempDir, type TestServer } from '../support/server.js';

/** An admin lists and revokes any user's tokens: GET/DELETE /v1/users/tokens (issue 38). */

const hash = bcrypt.hashSync('secret', 4);
const provisioned = 'tk_7eevizlsiwf9yi4uxsrs83r4352o0';

let s: TestServer;
before(async () => {
  s = await startTestServer({
    'auth-file': join(tempDir(), 'auth.db'),
    'auth-default-access': 'deny-all',
    'auth-users': [`admin:${hash}:admin`, `phil:${hash}:user`],
    'auth-tokens': [`phil:${provisioned}:ci`],
    'enable-login': true,
    'visitor-auth-failure-limit-burst': 100,
  });
});
after(() => s.server.close());

const call = (method: string, path: string, authorization?: string, body?: unknown): Promise<[number, Json]> => apiCall(s.url, method, path, authorization, body);
const admin = basic('admin');

describe('admin API — any user\'s tokens', () => {
  it('lists a user\'s tokens with label, expiry and last access, and revokes one so it stops working', async () => {
    const [, made] = await call('POST', '/v1/account/token', basic('phil'), { label: 'phone' });
    const value = made.token as string;
    assert.equal((await call('GET', '/v1/account', `Bearer ${value}`))[0], 200);
    const [status, listed] = await call('GET', '/v1/users/tokens?username=phil', admin);
    assert.equal(status, 200);
    const tokens = listed.tokens as Json[];
    assert.deepEqual(tokens.map((t) => [t.token, t.label]).sort(), [[provisioned, 'ci'], [value, 'phone']].sort());
    const phone = tokens.find((t) => t.token === value) as Json;
    assert.ok(Math.abs((phone.expires as number) - (Date.now() / 1000 + 72 * 3600)) < 5);
    assert.ok(Math.abs((phone.last_access as number) - Date.now() / 1000) < 5);
    assert.deepEqual(await call('DELETE', '/v1/users/tokens', admin, { username: 'phil', token: value }), [200, { success: true }]);
    assert.deepEqual(await code(call('GET', '/v1/account', `Bearer ${value}`)), [401, 40101], 'revoked at once');
    assert.deepEqual((await call('GET', '/v1/users/tokens?username=phil', admin))[1], { tokens: [{ token: provisioned, label: 'ci' }] });
  });

  it('lists a scoped token with its scopes', async () => {
    const scopes = [{ topic: 'deploys', permission: 'write-only' }];
    const [, made] = await call('POST', '/v1/account/token', basic('phil'), { label: 'ci-deploy', scopes });
    const listed = ((await call('GET', '/v1/users/tokens?username=phil', admin))[1].tokens as Json[]).find((t) => t.token === made.token);
    assert.deepEqual(listed?.scopes, scopes);
    assert.equal(listed?.label, 'ci-deploy');
    assert.deepEqual(await call('DELETE', '/v1/users/tokens', admin, { username: 'phil', token: made.token }), [200, { success: true }]);
  });

  it('answers bad input with ntfy-style rows', async () => {
    assert.deepEqual(await code(call('GET', '/v1/users/tokens', admin)), [400, 40031]);
    assert.deepEqual(await code(call('GET', '/v1/users/tokens?username=ghost', admin)), [400, 40031]);
    assert.deepEqual(await code(call('GET', '/v1/users/tokens?username=bad%20name', admin)), [400, 40031]);
    assert.deepEqual(await code(call('DELETE', '/v1/users/tokens', admin, { username: 'phil', token: 'nope' })), [400, 40000]);
    assert.deepEqual(await code(call('DELETE', '/v1/users/tokens', admin, { username: 'phil', token: 'tk_aaaaaaaaaaaaaaaaaaaaaaaaaaaaa' })), [404, 40401]);
    assert.deepEqual(await code(call('DELETE', '/v1/users/tokens', admin, { username: 'phil', token: provisioned })), [409, 40906]);
    assert.deepEqual(await code(call('DELETE', '/v1/users/tokens', admin, { username: 'phil', token: 5 })), [400, 40024]);
  });

  it('refuses non-admins and strangers', async () => {
    for (const auth of [basic('phil'), undefined]) {
      assert.deepEqual(await code(call('GET', '/v1/users/tokens?username=phil', auth)), [401, 40101]);
      assert.deepEqual(await code(call('DELETE', '/v1/users/tokens', auth, { username: 'phil', token: provisioned })), [401, 40101]);
    }
  });
});
