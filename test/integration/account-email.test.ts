import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { newMagicLink } from '../../src/model/magic-link.js';
import { nowSeconds } from '../../src/model/message.js';
import { apiCall, statusAndCode } from '../support/account-api.js';
import { basic, hash, tokenIn, verified, world, type World } from '../support/account-email.js';
import { startTestServer, tempDir } from '../support/server.js';

/**
 * Account e-mail addresses and password reset by magic link (ntfy 2.21/2.25): a real server
 * mailing through the local SMTP peer; each test reads the link out of the mail it receives
 * and follows it as the web app's landing page does.
 */

const emailsOf = async (w: World, user: string): Promise<unknown> => (await w.call('GET', '/v1/account', basic(user)))[1].emails;
const code = statusAndCode;

describe('account e-mail — adding and verifying addresses', () => {
  it('a mailed link verifies the address: pending, then verified and primary; the link works once; its page is the app\'s, without referrer or index', async () => {
    const w = await world();
    assert.deepEqual(await w.call('PUT', '/v1/account/email', basic('ben'), { email: 'ben@example.com' }), [200, { success: true }]);
    const mail = await w.sink.mails.take(5000);
    assert.equal(mail.from, 'tocsin@example.com');
    assert.equal(mail.parsed.subject, 'Verify your e-mail address for tocsin.test');
    assert.deepEqual(await emailsOf(w, 'ben'), [{ address: 'ben@example.com', pending: true }]);
    const token = tokenIn(mail, 'email/verify');
    const page = await fetch(`${w.s.url}/account/email/verify/${token}`, { headers: { Accept: 'text/html' } });
    assert.equal(page.status, 200);
    assert.deepEqual([page.headers.get('referrer-policy'), page.headers.get('x-robots-tag')], ['no-referrer', 'noindex']);
    assert.match(await page.text(), /<html/i);
    assert.equal((await fetch(`${w.s.url}/account/email/verify/${token}`)).status, 404, 'not a browser: no page');
    // The page's relative URLs, resolved below the link's path, find the build's files.
    assert.match(await (await fetch(`${w.s.url}/account/email/verify/config.js`)).text(), /"enable_reset_password": true/);
    assert.equal((await fetch(`${w.s.url}/account/password/reset/favicon.svg`)).status, 200);
    assert.equal((await fetch(`${w.s.url}/account/password/static/nothing.js`)).status, 404);
    assert.deepEqual(await w.call('POST', '/v1/account/email/verify', undefined, { token }), [200, { success: true }]);
    assert.deepEqual(await emailsOf(w, 'ben'), [{ address: 'ben@example.com', primary: true }]);
    assert.deepEqual(await code(w.call('POST', '/v1/account/email/verify', undefined, { token })), [400, 40051], 'used up');
    assert.deepEqual(await code(w.call('PUT', '/v1/account/email', basic('ben'), { email: 'ben@example.com' })), [409, 40907]);
  });

  it('a second verified address is no primary until set; another account may verify it only as a secondary (40908)', async () => {
    const w = await world();
    await verified(w, 'ben', 'shared@example.com');
    await verified(w, 'ben', 'ben@example.com');
    await verified(w, 'alice', 'shared@example.com');
    assert.deepEqual(await emailsOf(w, 'alice'), [{ address: 'shared@example.com' }]);
    assert.deepEqual(await code(w.call('POST', '/v1/account/email/primary', basic('alice'), { email: 'shared@example.com' })), [409, 40908]);
    assert.deepEqual(await code(w.call('POST', '/v1/account/email/primary', basic('alice'), { email: 'never@example.com' })), [400, 40052]);
    assert.deepEqual(await w.call('POST', '/v1/account/email/primary', basic('ben'), { email: 'ben@example.com' }), [200, { success: true }]);
    assert.deepEqual(await emailsOf(w, 'ben'), [{ address: 'ben@example.com', primary: true }, { address: 'shared@example.com' }]);
    assert.deepEqual(await w.call('POST', '/v1/account/email/primary', basic('alice'), { email: 'shared@example.com' }), [200, { success: true }], 'free now');
    assert.deepEqual(await w.call('DELETE', '/v1/account/email', basic('ben'), { email: 'ben@example.com' }), [200, { success: true }]);
    assert.deepEqual(await emailsOf(w, 'ben'), [{ address: 'shared@example.com' }], 'removing the primary leaves none');
  });

  it('resend mails a fresh link and voids the old one; deleting a pending address voids its link', async () => {
    const w = await world();
    await w.call('PUT', '/v1/account/email', basic('ben'), { email: 'ben@example.com' });
    const first = tokenIn(await w.sink.mails.take(5000), 'email/verify');
    assert.deepEqual(await w.call('POST', '/v1/account/email/resend', basic('ben'), { email: 'ben@example.com' }), [200, { success: true }]);
    const second = tokenIn(await w.sink.mails.take(5000), 'email/verify');
    assert.notEqual(first, second);
    assert.deepEqual(await code(w.call('POST', '/v1/account/email/verify', undefined, { token: first })), [400, 40051]);
    assert.deepEqual(await code(w.call('POST', '/v1/account/email/resend', basic('ben'), { email: 'never@example.com' })), [400, 40050]);
    assert.deepEqual(await w.call('DELETE', '/v1/account/email', basic('ben'), { email: 'ben@example.com' }), [200, { success: true }]);
    assert.equal(await emailsOf(w, 'ben'), undefined);
    assert.deepEqual(await code(w.call('POST', '/v1/account/email/verify', undefined, { token: second })), [400, 40051]);
  });

  it('bad input gets ntfy\'s codes, and nothing is mailed', async () => {
    const w = await world();
    const cases: [string, string, string | undefined, unknown][] = [
      ['PUT', '/v1/account/email', basic('ben'), { email: 'not-an-address' }],
      ['PUT', '/v1/account/email', basic('ben'), { email: 'Ben <ben@example.com>' }],
      ['PUT', '/v1/account/email', basic('ben'), { email: `${'a'.repeat(65)}@example.com` }],
      ['PUT', '/v1/account/email', basic('ben'), { email: 7 }],
      ['PUT', '/v1/account/email', basic('ben'), '{"email":'],
      ['PUT', '/v1/account/email', undefined, { email: 'ben@example.com' }],
      ['DELETE', '/v1/account/email', basic('ben'), { email: '' }],
      ['POST', '/v1/account/email/primary', basic('ben'), { email: 'x' }],
      ['POST', '/v1/account/email/verify', undefined, { token: '' }],
      ['POST', '/v1/account/email/verify', undefined, { token: 'doesnotexist' }],
      ['POST', '/v1/account/email/verify', undefined, { token: 'A'.repeat(44) }],
      ['POST', '/v1/account/email/verify', undefined, { token: 'A'.repeat(100_000) }],
    ];
    const codes = [];
    for (const [method, path, auth, body] of cases) codes.push(await code(w.call(method, path, auth, body)));
    assert.deepEqual(codes, [
      [400, 40050], [400, 40050], [400, 40050], [400, 40024], [400, 40024], [401, 40101], [400, 40050], [400, 40050],
      [400, 40051], [400, 40051], [400, 40051], [413, 41303],
    ]);
    assert.equal(w.sink.attempts, 0);
  });

  it('a link whose secret half is wrong opens nothing, even with the right selector; an expired one neither', async () => {
    const w = await world();
    await w.call('PUT', '/v1/account/email', basic('ben'), { email: 'ben@example.com' });
    const token = tokenIn(await w.sink.mails.take(5000), 'email/verify');
    const forged = token.slice(0, 12) + (token[12] === 'A' ? 'B' : 'A') + token.slice(13);
    assert.deepEqual(await code(w.call('POST', '/v1/account/email/verify', undefined, { token: forged })), [400, 40051]);
    const store = w.s.server.context.access!.store;
    const old = newMagicLink('email-verify', 'ben', 'old@example.com', nowSeconds() - 25 * 3600);
    await store.addMagicLink(old.link);
    assert.deepEqual(await code(w.call('POST', '/v1/account/email/verify', undefined, { token: old.token })), [400, 40051]);
    assert.deepEqual(await w.call('POST', '/v1/account/email/verify', undefined, { token }), [200, { success: true }], 'the real one still works');
  });

  it('each link costs one of the visitor\'s e-mails (42902); a user on a tier without e-mails may add none (40101)', async () => {
    const w = await world({ 'visitor-email-limit-burst': 2, 'visitor-email-limit-replenish': '1h' });
    assert.equal((await w.call('PUT', '/v1/account/email', basic('ben'), { email: 'a@example.com' }))[0], 200);
    assert.equal((await w.call('POST', '/v1/account/email/resend', basic('ben'), { email: 'a@example.com' }))[0], 200);
    assert.deepEqual(await code(w.call('PUT', '/v1/account/email', basic('ben'), { email: 'b@example.com' })), [429, 42902]);
    const none = await world({ 'visitor-email-limit-burst': 0 });
    assert.deepEqual(await code(none.call('PUT', '/v1/account/email', basic('ben'), { email: 'a@example.com' })), [401, 40101]);
  });

  it('without an SMTP relay the address endpoints are 404, and GET /v1/account lists no addresses', async () => {
    const s = await startTestServer({ 'auth-file': join(tempDir(), 'auth.db'), 'auth-users': [`ben:${hash}:user`] });
    after(() => s.server.close());
    for (const [method, path] of [['PUT', '/v1/account/email'], ['DELETE', '/v1/account/email'], ['POST', '/v1/account/email/verify'], ['POST', '/v1/account/email/resend'], ['POST', '/v1/account/password/reset/request']]) {
      assert.deepEqual(await code(apiCall(s.url, method as string, path as string, basic('ben'), { email: 'a@example.com', token: 'x', identifier: 'ben' })), [404, 40401], `${method} ${path}`);
    }
  });

  it('sign-up with an e-mail mails a link, which makes the address the new account\'s primary; a malformed one is 40050', async () => {
    const w = await world({ 'enable-signup': true });
    assert.deepEqual(await code(w.call('POST', '/v1/account', undefined, { username: 'otto', password: 'pw', email: 'not-an-email' })), [400, 40050]);
    assert.deepEqual(await w.call('POST', '/v1/account', undefined, { username: 'emma', password: 'pw', email: 'emma@example.com' }), [200, { success: true }]);
    const mail = await w.sink.mails.take(5000);
    assert.deepEqual(mail.to, ['emma@example.com']);
    assert.equal((await w.call('POST', '/v1/account/email/verify', undefined, { token: tokenIn(mail, 'email/verify') }))[0], 200);
    assert.deepEqual((await w.call('GET', '/v1/account', basic('emma', 'pw')))[1].emails, [{ address: 'emma@example.com', primary: true }]);
    assert.deepEqual(await code(w.call('POST', '/v1/account', undefined, { username: 'otto', password: 'pw' })), [200, { success: true }], 'no e-mail, no mail');
  });
});

describe('account e-mail — password reset', () => {
  it('by user name or primary address: the link goes to the primary address and sets a new password once; tokens stay valid', async () => {
    const w = await world();
    await verified(w, 'ben', 'ben@example.com');
    const [, login] = await w.call('POST', '/v1/account/token', basic('ben'));
    for (const identifier of ['ben', 'ben@example.com']) {
      assert.deepEqual(await w.call('POST', '/v1/account/password/reset/request', undefined, { identifier }), [200, { success: true }]);
      const mail = await w.sink.mails.take(5000);
      assert.deepEqual([mail.to, mail.parsed.subject], [['ben@example.com'], 'Reset your password on tocsin.test']);
      const token = tokenIn(mail, 'password/reset');
      const page = await fetch(`${w.s.url}/account/password/reset/${token}`, { headers: { Accept: 'text/html' } });
      assert.deepEqual([page.status, page.headers.get('referrer-policy')], [200, 'no-referrer']);
      const password = `new-${identifier}`;
      assert.deepEqual(await w.call('POST', '/v1/account/password/reset', undefined, { token, password }), [200, { success: true }]);
      assert.deepEqual(await code(w.call('POST', '/v1/account/password/reset', undefined, { token, password: 'again' })), [400, 40054], 'used up');
      assert.equal((await w.call('GET', '/v1/account', basic('ben', password)))[0], 200);
    }
    assert.equal((await w.call('GET', '/v1/account', basic('ben')))[0], 401, 'the old password is gone');
    assert.equal((await w.call('GET', '/v1/account', `Bearer ${login.token as string}`))[0], 200, 'the access token still works');
  });

  it('answers every identifier the same; only an account with a verified primary address gets a link, never a look-alike user name', async () => {
    const w = await world({ 'visitor-account-creation-limit-burst': 20 });
    await w.s.server.context.access!.store.addUser('phil@example.com', hash, 'user');
    await verified(w, 'prov', 'prov@example.com');
    await verified(w, 'ben', 'phil@example.com'); // ben's primary looks like the other account's name
    await verified(w, 'phil@example.com', 'squatter@example.com');
    for (const identifier of ['ghost', 'alice', 'nobody@example.com', '', '  ', 'prov', 'prov@example.com', 'phil@example.com']) {
      assert.deepEqual(await w.call('POST', '/v1/account/password/reset/request', undefined, { identifier }), [200, { success: true }], identifier);
    }
    const mail = await w.sink.mails.take(5000);
    assert.deepEqual(mail.to, ['phil@example.com'], 'the first and only mail: the address owner\'s, not the look-alike\'s');
    assert.equal((await w.call('POST', '/v1/account/password/reset', undefined, { token: tokenIn(mail, 'password/reset'), password: 'brandnew' }))[0], 200);
    assert.equal((await w.call('GET', '/v1/account', basic('ben', 'brandnew')))[0], 200);
    assert.equal((await w.call('GET', '/v1/account', basic('phil@example.com')))[0], 200, 'the look-alike keeps its password');
    assert.equal(w.sink.mails.ended, undefined);
  });

  it('one account gets 3 reset mails at most at once, however many requests ask (against flooding a mailbox from many addresses)', async () => {
    const w = await world({ 'behind-proxy': true });
    await verified(w, 'ben', 'ben@example.com');
    await verified(w, 'alice', 'alice@example.com');
    for (let i = 1; i <= 5; i++) {
      const [status] = await apiCall(w.s.url, 'POST', '/v1/account/password/reset/request', undefined, { identifier: 'ben' }, { 'X-Forwarded-For': `203.0.113.${i}` });
      assert.equal(status, 200);
    }
    await w.call('POST', '/v1/account/password/reset/request', undefined, { identifier: 'alice' });
    const to = [];
    for (let i = 0; i < 4; i++) to.push((await w.sink.mails.take(5000)).to[0]);
    assert.deepEqual(to.sort(), ['alice@example.com', 'ben@example.com', 'ben@example.com', 'ben@example.com']);
    await apiCall(w.s.url, 'POST', '/v1/account/password/reset/request', undefined, { identifier: 'alice' }, { 'X-Forwarded-For': '203.0.113.9' });
    assert.deepEqual((await w.sink.mails.take(5000)).to, ['alice@example.com'], 'the next mail: no fourth and fifth for ben');
  });

  it('a provisioned user may verify addresses (the first is primary) but a link made for one resets nothing (40054)', async () => {
    const w = await world();
    await verified(w, 'prov', 'prov@example.com');
    assert.deepEqual(await emailsOf(w, 'prov'), [{ address: 'prov@example.com', primary: true }]);
    const { token, link } = newMagicLink('password-reset', 'prov', '', nowSeconds());
    await w.s.server.context.access!.store.addMagicLink(link);
    assert.deepEqual(await code(w.call('POST', '/v1/account/password/reset', undefined, { token, password: 'x' })), [400, 40054]);
  });

  it('bad input: empty token 40054, empty password 40000, unknown or forged token 40054, the wrong kind of link 40054', async () => {
    const w = await world();
    await w.call('PUT', '/v1/account/email', basic('ben'), { email: 'ben@example.com' });
    const verifyToken = tokenIn(await w.sink.mails.take(5000), 'email/verify');
    const cases: unknown[] = [{ password: 'x' }, { token: 'x', password: '' }, { token: 'nope', password: 'x' }, { token: 'A'.repeat(44), password: 'x' }, { token: verifyToken, password: 'x' }, { token: 5, password: 'x' }];
    const codes = [];
    for (const body of cases) codes.push(await code(w.call('POST', '/v1/account/password/reset', undefined, body)));
    assert.deepEqual(codes, [[400, 40054], [400, 40000], [400, 40054], [400, 40054], [400, 40054], [400, 40024]]);
    assert.deepEqual(await code(w.call('POST', '/v1/account/password/reset/request', undefined, { identifier: 5 })), [400, 40024]);
  });

  it('a link made without the relay (as ntfy user reset-pass would) resets the password: the reset needs only the user store', async () => {
    const s = await startTestServer({ 'auth-file': join(tempDir(), 'auth.db'), 'auth-users': [`ben:${hash}:user`] });
    after(() => s.server.close());
    await s.server.context.access!.store.addUser('carl', hash, 'user');
    const { token, link } = newMagicLink('password-reset', 'carl', '', nowSeconds());
    await s.server.context.access!.store.addMagicLink(link);
    assert.deepEqual(await apiCall(s.url, 'POST', '/v1/account/password/reset', undefined, { token, password: 'brandnew' }), [200, { success: true }]);
    assert.equal((await apiCall(s.url, 'GET', '/v1/account', basic('carl', 'brandnew')))[0], 200);
  });

  it('reset requests and sign-ups share the account-action limit (42906), spent by every request, matched or not', async () => {
    const w = await world({ 'enable-signup': true, 'visitor-account-creation-limit-burst': 3 });
    assert.equal((await w.call('POST', '/v1/account/password/reset/request', undefined, { identifier: 'ghost' }))[0], 200);
    assert.equal((await w.call('POST', '/v1/account', undefined, { username: 'new1', password: 'pw' }))[0], 200);
    assert.equal((await w.call('POST', '/v1/account/password/reset/request', undefined, { identifier: 'ben' }))[0], 200);
    assert.deepEqual(await code(w.call('POST', '/v1/account/password/reset/request', undefined, { identifier: 'ben' })), [429, 42906]);
    assert.deepEqual(await code(w.call('POST', '/v1/account', undefined, { username: 'new2', password: 'pw' })), [429, 42906]);
  });
});
