import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import bcrypt from 'bcryptjs';
import type { Json } from '../support/clients.js';
import { apiCall, basic, statusAndCode as code } from '../support/account-api.js';
import { startTestServer, tempDir, type TestServer } from '../support/server.js';

/** The admin API's named groups (/v1/groups, /v1/groups/members) and group grants on /v1/users/access (issue 38). */

const hash = bcrypt.hashSync('secret', 4);

let s: TestServer;
before(async () => {
  s = await startTestServer({
    'auth-file': join(tempDir(), 'auth.db'),
    'auth-default-access': 'deny-all',
    'auth-users': [`admin:${hash}:admin`, `phil:${hash}:user`, `mia:${hash}:user`],
    'visitor-auth-failure-limit-burst': 100,
  });
});
after(() => s.server.close());

const call = (method: string, path: string, authorization?: string, body?: unknown): Promise<[number, Json]> => apiCall(s.url, method, path, authorization, body);
const admin = basic('admin');
const ok: [number, Json] = [200, { success: true }];

describe('admin API — groups', () => {
  it('adds a group, adds and removes members, lists them, removes the group', async () => {
    assert.deepEqual(await call('POST', '/v1/groups', admin, { name: 'ops' }), ok);
    assert.deepEqual(await call('PUT', '/v1/groups/members', admin, { group: 'ops', username: 'phil' }), ok);
    assert.deepEqual(await call('PUT', '/v1/groups/members', admin, { group: 'ops', username: 'mia' }), ok);
    assert.deepEqual(await call('GET', '/v1/groups', admin), [200, { groups: [{ name: 'ops', members: ['mia', 'phil'] }] }]);
    assert.deepEqual(await call('DELETE', '/v1/groups/members', admin, { group: 'ops', username: 'mia' }), ok);
    assert.deepEqual(await call('GET', '/v1/groups', admin), [200, { groups: [{ name: 'ops', members: ['phil'] }] }]);
    assert.deepEqual(await call('DELETE', '/v1/groups', admin, { name: 'ops' }), ok);
    assert.deepEqual(await call('GET', '/v1/groups', admin), [200, { groups: [] }]);
  });

  it('answers bad input with 400/409 rows and keeps running', async () => {
    await call('POST', '/v1/groups', admin, { name: 'dev' });
    assert.deepEqual(await code(call('POST', '/v1/groups', admin, { name: 'dev' })), [409, 40910]);
    assert.deepEqual(await code(call('POST', '/v1/groups', admin, { name: 'bad name' })), [400, 40067]);
    assert.deepEqual(await code(call('POST', '/v1/groups', admin, { name: 'x'.repeat(65) })), [400, 40067]);
    assert.deepEqual(await code(call('POST', '/v1/groups', admin, { name: 'authenticated' })), [400, 40067], 'reserved for every logged-in user');
    assert.deepEqual(await code(call('POST', '/v1/groups', admin, {})), [400, 40067]);
    assert.deepEqual(await code(call('POST', '/v1/groups', admin, { name: 7 })), [400, 40024]);
    assert.deepEqual(await code(call('POST', '/v1/groups', admin, 'not json')), [400, 40024]);
    assert.deepEqual(await code(call('DELETE', '/v1/groups', admin, { name: 'ghost' })), [400, 40068]);
    assert.deepEqual(await code(call('PUT', '/v1/groups/members', admin, { group: 'ghost', username: 'phil' })), [400, 40068]);
    assert.deepEqual(await code(call('PUT', '/v1/groups/members', admin, { group: 'dev', username: 'ghost' })), [400, 40068]);
    assert.deepEqual(await code(call('PUT', '/v1/groups/members', admin, { group: 'dev', username: 'bad name!' })), [400, 40031]);
    assert.deepEqual(await code(call('DELETE', '/v1/groups/members', admin, { group: 'dev', username: 'mia' })), [400, 40068], 'not a member');
    assert.deepEqual(await code(call('GET', '/v1/groups?offset=-1', admin)), [400, 40000]);
    assert.deepEqual(await call('GET', '/v1/groups?offset=5', admin), [200, { groups: [] }]);
    assert.deepEqual(await call('DELETE', '/v1/groups', admin, { name: 'dev' }), ok);
  });

  it('pages the list 200 groups at a time', async () => {
    for (let i = 0; i < 201; i++) await call('POST', '/v1/groups', admin, { name: `g${String(i).padStart(3, '0')}` });
    const [, first] = await call('GET', '/v1/groups', admin);
    assert.equal((first.groups as Json[]).length, 200);
    assert.equal(first.next, 200);
    assert.deepEqual(await call('GET', '/v1/groups?offset=200', admin), [200, { groups: [{ name: 'g200', members: [] }] }]);
    for (let i = 0; i < 201; i++) await call('DELETE', '/v1/groups', admin, { name: `g${String(i).padStart(3, '0')}` });
  });

  it('refuses non-admins and strangers on every route', async () => {
    for (const auth of [basic('phil'), undefined]) {
      assert.deepEqual(await code(call('GET', '/v1/groups', auth)), [401, 40101]);
      assert.deepEqual(await code(call('POST', '/v1/groups', auth, { name: 'x' })), [401, 40101]);
      assert.deepEqual(await code(call('DELETE', '/v1/groups', auth, { name: 'x' })), [401, 40101]);
      assert.deepEqual(await code(call('PUT', '/v1/groups/members', auth, { group: 'x', username: 'phil' })), [401, 40101]);
      assert.deepEqual(await code(call('DELETE', '/v1/groups/members', auth, { group: 'x', username: 'phil' })), [401, 40101]);
      assert.deepEqual(await code(call('PUT', '/v1/users/access', auth, { group: 'x', topic: 't', permission: 'ro' })), [401, 40101]);
    }
  });
});

describe('admin API — group grants on /v1/users/access', () => {
  it('grants a group read on a pattern: its members read, others do not; reset takes it back', async () => {
    await call('POST', '/v1/groups', admin, { name: 'readers' });
    await call('PUT', '/v1/groups/members', admin, { group: 'readers', username: 'mia' });
    assert.deepEqual(await call('PUT', '/v1/users/access', admin, { group: 'readers', topic: 'alerts*', permission: 'ro' }), ok);
    assert.deepEqual((await call('GET', '/v1/groups', admin))[1], { groups: [{ name: 'readers', members: ['mia'], grants: [{ topic: 'alerts*', permission: 'read-only' }] }] });
    const poll = (user: string, topic = 'alerts-1'): Promise<number> => fetch(`${s.url}/${topic}/json?poll=1`, { headers: { authorization: basic(user) } }).then((r) => r.status);
    assert.equal(await poll('mia'), 200);
    assert.equal(await poll('phil'), 403);
    assert.deepEqual(await call('DELETE', '/v1/users/access', admin, { group: 'readers', topic: 'alerts*' }), ok);
    assert.equal(await poll('mia'), 403);
    assert.deepEqual(await call('PUT', '/v1/users/access', admin, { group: 'authenticated', topic: 'all-users', permission: 'rw' }), ok);
    assert.equal(await poll('phil', 'all-users'), 200, 'every logged-in user');
    assert.deepEqual((await call('GET', '/v1/groups', admin))[1], { groups: [{ name: 'readers', members: ['mia'] }], authenticated: { grants: [{ topic: 'all-users', permission: 'read-write' }] } });
  });

  it('answers a missing or bad group, or both a user and a group, with 400', async () => {
    assert.deepEqual(await code(call('PUT', '/v1/users/access', admin, { group: 'ghost', topic: 't', permission: 'ro' })), [400, 40068]);
    assert.deepEqual(await code(call('PUT', '/v1/users/access', admin, { group: 'bad name', topic: 't', permission: 'ro' })), [400, 40067]);
    assert.deepEqual(await code(call('PUT', '/v1/users/access', admin, { group: 'readers', username: 'mia', topic: 't', permission: 'ro' })), [400, 40000]);
    assert.deepEqual(await code(call('PUT', '/v1/users/access', admin, { group: 'readers', topic: 'bad topic!', permission: 'ro' })), [400, 40009]);
    assert.deepEqual(await code(call('DELETE', '/v1/users/access', admin, { group: 'ghost' })), [400, 40068]);
  });
});
