import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import bcrypt from 'bcryptjs';
import { authenticated } from '../../src/model/access.js';
import { basic } from '../support/account-api.js';
import { startTestServer, tempDir, type TestServer } from '../support/server.js';

/** The built-in group `*authenticated` (issue 38, item 3): entries for every logged-in user, provisioned or made at run time. */

const hash = bcrypt.hashSync('secret', 4);

for (const accessCache of [false, true]) {
  describe(`*authenticated — grants to every logged-in user (auth-access-cache ${accessCache})`, () => {
    let s: TestServer;
    before(async () => {
      s = await startTestServer({
        'auth-file': join(tempDir(), 'auth.db'),
        'auth-default-access': 'deny-all',
        'auth-users': [`phil:${hash}:user`, `ben:${hash}:user`],
        'auth-access': [`${authenticated}:team*:rw`, 'ben:team-secret:deny', '*:lobby:ro'],
        'auth-access-cache': accessCache,
        'visitor-auth-failure-limit-burst': 100,
      });
    });
    after(() => s.server.close());

    const publish = async (topic: string, user?: string): Promise<number> =>
      (await fetch(`${s.url}/${topic}`, { method: 'POST', body: 'hi', headers: user ? { Authorization: basic(user) } : {} })).status;

    it('lets every logged-in user use the group\'s topics, and no anonymous visitor', async () => {
      assert.deepEqual([await publish('team-a', 'phil'), await publish('team-a', 'ben'), await publish('team-a')], [200, 200, 403]);
      assert.equal((await fetch(`${s.url}/lobby/json?poll=1`)).status, 200, "everyone's entries still count");
    });

    it("a user's own more specific entry wins over the group's", async () => {
      assert.deepEqual([await publish('team-secret', 'ben'), await publish('team-secret', 'phil')], [403, 200]);
    });

    it('a grant made at run time applies at once; removing it, at once too', async () => {
      const store = s.server.context.access!.store;
      assert.equal(await publish('ops', 'phil'), 403);
      await store.allowAccess(authenticated, 'ops', { read: true, write: true });
      assert.equal(await publish('ops', 'phil'), 200);
      await store.resetAccess(authenticated, 'ops');
      assert.equal(await publish('ops', 'phil'), 403);
    });
  });
}
