import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import bcrypt from 'bcryptjs';
import { nowSeconds } from '../../src/model/message.js';
import { statusAndCode } from '../support/account-api.js';
import { basic, verified, world } from '../support/account-email.js';

/**
 * POST /v1/account/login (ntfy 2.27): Basic auth by user name or verified primary e-mail
 * address, answered with a new 72-hour token and the account's own name.
 */

const code = statusAndCode;
const tokenPattern = /^tk_[a-z0-9]{29}$/;

describe('account login — POST /v1/account/login', () => {
  it('by user name or by the verified primary address: a token for 72 hours that opens the account, and its own name', async () => {
    const w = await world();
    await verified(w, 'ben', 'ben@example.com');
    for (const name of ['ben', 'ben@example.com']) {
      const [status, answer] = await w.call('POST', '/v1/account/login', basic(name));
      assert.equal(status, 200);
      assert.deepEqual(Object.keys(answer).sort(), ['token', 'username']);
      assert.equal(answer.username, 'ben');
      assert.match(answer.token as string, tokenPattern);
      const [, account] = await w.call('GET', '/v1/account', `Bearer ${answer.token as string}`);
      assert.equal(account.username, 'ben');
      const token = (account.tokens as { token: string; expires: number }[]).find((t) => t.token === answer.token);
      assert.ok(token && Math.abs(token.expires - (nowSeconds() + 72 * 3600)) <= 5, JSON.stringify(token));
    }
  });

  it('wrong or missing credentials are 401 (40101): a wrong password, a pending or secondary address, no or token credentials', async () => {
    const w = await world();
    await verified(w, 'ben', 'ben@example.com');
    await verified(w, 'ben', 'ben2@example.com'); // verified, not primary
    assert.deepEqual(await w.call('PUT', '/v1/account/email', basic('alice'), { email: 'alice@example.com' }), [200, { success: true }]);
    await w.sink.mails.take(5000); // alice's address stays pending
    assert.deepEqual(await code(w.call('POST', '/v1/account/login', basic('ben@example.com', 'wrong'))), [401, 40101]);
    assert.deepEqual(await code(w.call('POST', '/v1/account/login', basic('ben2@example.com'))), [401, 40101]);
    assert.deepEqual(await code(w.call('POST', '/v1/account/login', basic('alice@example.com'))), [401, 40101]);
    assert.deepEqual(await code(w.call('POST', '/v1/account/login', basic('nobody@example.com'))), [401, 40101]);
    assert.deepEqual(await code(w.call('POST', '/v1/account/login')), [401, 40101]);
    const [, made] = await w.call('POST', '/v1/account/token', basic('ben'));
    assert.deepEqual(await code(w.call('POST', '/v1/account/login', `Bearer ${made.token as string}`)), [401, 40101]);
  });

  it('the address logs in on this route only: other Basic-auth requests take the user name', async () => {
    const w = await world();
    await verified(w, 'ben', 'ben@example.com');
    assert.deepEqual(await code(w.call('GET', '/v1/account', basic('ben@example.com'))), [401, 40101]);
    assert.deepEqual(await code(w.call('POST', '/v1/account/token', basic('ben@example.com'))), [401, 40101]);
  });

  it('a user named like someone\'s address and the address\'s owner both log in, each with their own password', async () => {
    const w = await world();
    await verified(w, 'ben', 'ben@example.com');
    await w.s.server.context.access!.store.addUser('ben@example.com', bcrypt.hashSync('other', 4), 'user');
    const [, owner] = await w.call('POST', '/v1/account/login', basic('ben@example.com'));
    assert.equal(owner.username, 'ben');
    const [, named] = await w.call('POST', '/v1/account/login', basic('ben@example.com', 'other'));
    assert.equal(named.username, 'ben@example.com', 'the user of that name');
  });

  it('failed logins count against the address\'s auth-failure limit (42909), as other logins', async () => {
    const w = await world({ 'visitor-auth-failure-limit-burst': 2 });
    await verified(w, 'ben', 'ben@example.com');
    assert.deepEqual(await code(w.call('POST', '/v1/account/login', basic('ben@example.com', 'wrong'))), [401, 40101]);
    assert.deepEqual(await code(w.call('GET', '/v1/account', basic('ben', 'wrong'))), [401, 40101]);
    assert.deepEqual(await code(w.call('POST', '/v1/account/login', basic('ben@example.com'))), [429, 42909]);
  });
});
