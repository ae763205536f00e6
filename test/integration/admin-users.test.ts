import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import bcrypt from 'bcryptjs';
import type { Json } from '../support/clients.js';
import { apiCall, basic, statusAndCode as code } from '../support/account-api.js';
import { startTestServer, tempDir, type TestServer } from '../support/server.js';

/** PUT /v1/users beyond ntfy's: `"role"` (tocsin user change-role) and `"tier": null` (change-tier USER -), issue 38. */

const hash = bcrypt.hashSync('secret', 4);

let s: TestServer;
before(async () => {
  s = await startTestServer({
    'auth-file': join(tempDir(), 'auth.db'),
    'auth-default-access': 'deny-all',
    'auth-users': [`root:${hash}:admin`, `fixed:${hash}:user`],
    'visitor-auth-failure-limit-burst': 100,
  });
  await call('POST', '/v1/users', basic('root'), { username: 'boss', password: 'secret' });
  await call('POST', '/v1/users', basic('root'), { username: 'phil', password: 'secret' });
  await call('POST', '/v1/tiers', basic('root'), { code: 'basic' });
});
after(() => s.server.close());

const call = (method: string, path: string, authorization?: string, body?: unknown): Promise<[number, Json]> => apiCall(s.url, method, path, authorization, body);
const ok: [number, Json] = [200, { success: true }];
const roleOf = async (name: string): Promise<unknown> => ((await call('GET', '/v1/users', basic('root')))[1] as unknown as Json[]).find((u) => u.username === name)?.role;

describe('admin API — a user\'s role', () => {
  it('makes a user admin, who may then use the admin API, and a user again, who may not', async () => {
    assert.deepEqual(await code(call('GET', '/v1/users', basic('boss'))), [401, 40101]);
    assert.deepEqual(await call('PUT', '/v1/users', basic('root'), { username: 'boss', role: 'admin' }), ok);
    assert.equal(await roleOf('boss'), 'admin');
    assert.equal((await call('GET', '/v1/users', basic('boss')))[0], 200);
    assert.deepEqual(await call('PUT', '/v1/users', basic('boss'), { username: 'phil', role: 'admin' }), ok, 'the new admin promotes another');
    assert.deepEqual(await call('PUT', '/v1/users', basic('root'), { username: 'boss', role: 'user' }), ok);
    assert.deepEqual(await call('PUT', '/v1/users', basic('root'), { username: 'phil', role: 'user' }), ok);
    assert.equal(await roleOf('boss'), 'user');
    assert.deepEqual(await code(call('GET', '/v1/users', basic('boss'))), [401, 40101]);
  });

  it('refuses to demote the last admin or the caller, to touch a provisioned user, or an admin\'s password and tier', async () => {
    const [status, refused] = await call('PUT', '/v1/users', basic('root'), { username: 'root', role: 'user' });
    assert.deepEqual([status, refused.code, refused.error], [403, 40301, 'forbidden; cannot demote the last admin']);
    assert.deepEqual(await call('PUT', '/v1/users', basic('root'), { username: 'boss', role: 'admin' }), ok);
    const [status2, refused2] = await call('PUT', '/v1/users', basic('boss'), { username: 'boss', role: 'user' });
    assert.deepEqual([status2, refused2.code, refused2.error], [403, 40301, 'forbidden; cannot change your own role']);
    assert.deepEqual(await code(call('PUT', '/v1/users', basic('boss'), { username: 'root', role: 'user' })), [409, 40905], 'server.yml made root');
    assert.deepEqual(await code(call('PUT', '/v1/users', basic('root'), { username: 'fixed', role: 'admin' })), [409, 40905]);
    assert.deepEqual(await code(call('PUT', '/v1/users', basic('root'), { username: 'boss', tier: 'basic' })), [403, 40301]);
    assert.deepEqual(await code(call('PUT', '/v1/users', basic('root'), { username: 'boss', role: 'user', password: 'x' })), [403, 40301]);
    assert.equal(await roleOf('boss'), 'admin', 'nothing changed');
    assert.equal(await roleOf('fixed'), 'user');
    assert.deepEqual(await call('PUT', '/v1/users', basic('root'), { username: 'boss', role: 'user' }), ok);
  });

  it('answers a bad role or a missing user with ntfy-style rows', async () => {
    assert.deepEqual(await code(call('PUT', '/v1/users', basic('root'), { username: 'phil', role: 'owner' })), [400, 40000]);
    assert.deepEqual(await code(call('PUT', '/v1/users', basic('root'), { username: 'phil', role: 1 })), [400, 40024]);
    assert.deepEqual(await code(call('PUT', '/v1/users', basic('root'), { username: 'ghost', role: 'admin' })), [400, 40031]);
    assert.deepEqual(await code(call('PUT', '/v1/users', basic('root'), { username: 'phil' })), [400, 40000]);
    assert.deepEqual(await code(call('PUT', '/v1/users', basic('phil'), { username: 'phil', role: 'admin' })), [401, 40101]);
    assert.deepEqual(await code(call('PUT', '/v1/users', undefined, { username: 'phil', role: 'admin' })), [401, 40101]);
    assert.equal(await roleOf('phil'), 'user');
  });
});

describe('admin API — taking a user\'s tier away', () => {
  it('puts a user on a tier and takes it away with "tier": null; "" and absent leave it', async () => {
    const tierOf = async (): Promise<unknown> => (await call('GET', '/v1/account', basic('phil')))[1].tier;
    assert.deepEqual(await call('PUT', '/v1/users', basic('root'), { username: 'phil', tier: 'basic' }), ok);
    assert.deepEqual(await tierOf(), { code: 'basic', name: 'basic' });
    assert.deepEqual(await call('PUT', '/v1/users', basic('root'), { username: 'phil', tier: '', password: 'secret' }), ok);
    assert.deepEqual(await tierOf(), { code: 'basic', name: 'basic' }, '"" changes nothing, as in ntfy');
    assert.deepEqual(await call('PUT', '/v1/users', basic('root'), { username: 'phil', tier: null }), ok);
    assert.equal(await tierOf(), undefined);
    assert.deepEqual(await code(call('PUT', '/v1/users', basic('root'), { username: 'phil', tier: 'ghost' })), [400, 40030]);
    assert.deepEqual(await call('PUT', '/v1/users', basic('root'), { username: 'fixed', tier: null }), ok, 'server.yml gives no tiers, so the API may, as ntfy');
  });

  it('adds a missing user only with a password: a tier alone is 40000, and no one logs in with an empty password', async () => {
    assert.deepEqual(await code(call('PUT', '/v1/users', basic('root'), { username: 'newbie', tier: 'basic' })), [400, 40000]);
    assert.deepEqual(await code(call('GET', '/v1/account', basic('newbie', ''))), [401, 40101]);
    assert.equal(((await call('GET', '/v1/users', basic('root')))[1] as unknown as Json[]).some((u) => u.username === 'newbie'), false);
    assert.deepEqual(await call('PUT', '/v1/users', basic('root'), { username: 'newbie', tier: 'basic', password: 'secret' }), ok);
    assert.deepEqual((await call('GET', '/v1/account', basic('newbie')))[1].tier, { code: 'basic', name: 'basic' });
  });
});
