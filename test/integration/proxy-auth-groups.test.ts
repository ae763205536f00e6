import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import bcrypt from 'bcryptjs';
import { maxProxyGroups } from '../../src/auth/proxy-users.js';
import type { AuthStore } from '../../src/store/auth-store.js';
import { apiCall } from '../support/account-api.js';
import { startTestServer, tempDir, type TestServer } from '../support/server.js';

/** auth-groups-header (issue 38 items 1 and 3): a proxied user's header memberships and role follow the header at each request. */

const hash = bcrypt.hashSync('secret', 4);

describe('proxy auth — groups header', () => {
  let s: TestServer;
  let store: AuthStore;
  before(async () => {
    s = await startTestServer({
      'auth-file': join(tempDir(), 'auth.db'),
      'auth-default-access': 'deny-all',
      'auth-users': [`phil:${hash}:user`],
      'behind-proxy': true,
      'proxy-trusted-hosts': ['127.0.0.1'],
      'auth-user-header': 'X-Forwarded-User',
      'auth-groups-header': 'X-Forwarded-Groups',
      'auth-admin-group': 'admins',
    });
    store = s.server.context.access!.store;
    for (const name of ['carol', 'dave']) await store.addUser(name, hash, 'user');
    for (const group of ['ops', 'dev']) await store.addGroup(group);
    await store.allowAccess('*ops', 'ops-alerts', { read: true, write: true });
    await store.addMember('dev', 'carol');
  });
  after(() => s.server.close());

  const as = (user: string, groups: string): Record<string, string> => ({ 'X-Forwarded-User': user, 'X-Forwarded-Groups': groups });
  const publish = async (user: string, groups: string): Promise<[number, unknown]> => {
    const [status, json] = await apiCall(s.url, 'POST', '/ops-alerts', undefined, 'hi', as(user, groups));
    return [status, json.code];
  };
  const account = async (user: string, groups: string): Promise<[unknown, unknown]> => {
    const [, json] = await apiCall(s.url, 'GET', '/v1/account', undefined, undefined, as(user, groups));
    return [json.username, json.role];
  };
  const groupsOf = async (user: string): Promise<string[]> => (await store.groups()).filter((g) => g.members.includes(user)).map((g) => g.name);

  it("joins the listed groups that exist (and gets their grants), leaves them when the header stops listing them; other memberships stay", async () => {
    assert.deepEqual(await publish('carol', 'ops, Domain Users, no-such-group'), [200, undefined]);
    assert.deepEqual(await groupsOf('carol'), ['dev', 'ops']);
    assert.deepEqual(await publish('carol', ''), [403, 40301]);
    assert.deepEqual(await groupsOf('carol'), ['dev'], 'the membership made with the CLI is not the header\'s to remove');
  });

  it('the admin group makes the user an admin, its absence a plain user again', async () => {
    assert.deepEqual(await account('carol', 'ops,admins'), ['carol', 'admin']);
    assert.equal((await store.user('carol'))?.role, 'admin');
    assert.deepEqual(await publish('carol', 'admins'), [200, undefined], 'an admin may write anywhere');
    assert.deepEqual(await account('carol', 'ops'), ['carol', 'user']);
    assert.equal((await store.user('carol'))?.role, 'user');
  });

  it('never changes a provisioned user', async () => {
    assert.deepEqual(await account('phil', 'admins,ops'), ['phil', 'user']);
    assert.deepEqual(await groupsOf('phil'), []);
    assert.deepEqual(await publish('phil', 'admins,ops'), [403, 40301]);
  });

  it('writes memberships only when the groups change: the same groups in another order or spelling cost no store write', async () => {
    let writes = 0;
    const sync = store.syncMemberships.bind(store);
    store.syncMemberships = (user, groups) => {
      writes++;
      return sync(user, groups);
    };
    try {
      for (const groups of ['ops,dev', 'dev, ops', ' ops ,dev,dev', 'ops,dev']) assert.deepEqual(await account('dave', groups), ['dave', 'user']);
      assert.equal(writes, 1);
      await account('dave', 'dev');
      assert.equal(writes, 2);
      assert.deepEqual(await groupsOf('dave'), ['dev']);
    } finally {
      store.syncMemberships = sync;
    }
  });

  it(`refuses a header listing more than ${maxProxyGroups} groups (40101) rather than cut it`, async () => {
    const many = (n: number): string => Array.from({ length: n }, (_, i) => `g${i}`).join(',');
    assert.deepEqual(await account('dave', many(maxProxyGroups)), ['dave', 'user']);
    const [status, json] = await apiCall(s.url, 'GET', '/v1/account', undefined, undefined, as('dave', many(maxProxyGroups + 1)));
    assert.deepEqual([status, json.code], [401, 40101]);
    const [big] = await apiCall(s.url, 'GET', '/v1/account', undefined, undefined, as('dave', many(10_000)));
    assert.equal(big, 431, 'a header line past 8 KB is refused before any guard');
  });
});
