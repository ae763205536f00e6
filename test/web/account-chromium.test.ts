import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { apiCall } from '../support/account-api.js';
import { launchBrowser, noChromium } from '../support/browser.js';
import { SmtpSink } from '../support/smtp.js';
import { tempDir, type TestServer } from '../support/server.js';
import { adminPassword, startWebServer } from '../support/web-server.js';

/** require-login, e-mail verification and password reset in Chromium: the web app's pages against a real Tocsin mailing a real SMTP peer. */

let s: TestServer;
let browser: Browser;
const dir = tempDir();
const sink = await SmtpSink.start(); // at the top: it closes when the file's tests end, not when `before` does
before(async () => {
  if (noChromium) return;
  [s, browser] = await Promise.all([
    startWebServer(dir, { 'require-login': true, 'smtp-sender-addr': sink.address, 'smtp-sender-from': 'tocsin@example.com' }),
    launchBrowser(),
  ]);
});
after(() => Promise.all([s?.server.close(), browser?.close()]));

async function openApp(path: string): Promise<Page> {
  const page = await browser.newPage();
  page.on('pageerror', (err) => assert.fail(`page error: ${err.message}`));
  await page.goto(`${s.url}/${path}`);
  return page;
}

/** The link in the next mail the sink receives, for `to`. */
async function mailedLink(to: string): Promise<string> {
  const mail = await sink.mails.take(5000);
  assert.deepEqual(mail.to, [to]);
  const link = /(http:\/\/\S+\/account\/(?:email\/verify|password\/reset)\/[-_A-Za-z0-9]+)/.exec(mail.parsed.text ?? '')?.[1];
  assert.ok(link, mail.parsed.text);
  return link;
}

async function logIn(page: Page, username: string, password: string): Promise<void> {
  await page.getByLabel('User name').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('heading', { name: new RegExp(username) }).waitFor();
}

describe('web app in Chromium — require-login', { skip: noChromium }, () => {
  it('sends a visitor who is not logged in from a topic to the login page, without sidebar or publishing; logged in, the app is back', async () => {
    const page = await openApp('alerts');
    await page.getByRole('form', { name: 'Log in' }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/login');
    assert.equal(await page.getByRole('button', { name: 'Publish' }).count(), 0);
    assert.equal(await page.getByLabel('Topic to subscribe to').count(), 0);
    await page.goto(`${s.url}/settings`);
    await page.getByRole('form', { name: 'Log in' }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/login');
    await logIn(page, 'admin', adminPassword);
    await page.getByRole('button', { name: 'Publish' }).waitFor();
    await page.getByLabel('Topic to subscribe to').waitFor();
    await page.close();
  });
});

describe('web app in Chromium — e-mail addresses and password reset', { skip: noChromium }, () => {
  it('adds an address on the account page; the mailed link verifies it in the browser; a forgotten password is reset by the next mailed link', async () => {
    assert.equal((await apiCall(s.url, 'POST', '/v1/account', undefined, { username: 'ben', password: 'first-pass' }))[0], 200);
    const page = await openApp('login');
    await logIn(page, 'ben', 'first-pass');
    await page.getByLabel('New e-mail address').fill('ben@example.com');
    await page.getByRole('button', { name: 'Add address' }).click();
    await page.getByText('waiting for verification').waitFor();
    const verify = await browser.newPage();
    await verify.goto(await mailedLink('ben@example.com'));
    await verify.getByText('Your e-mail address is verified.').waitFor();
    await verify.close();
    await page.reload();
    await page.getByRole('cell', { name: 'primary' }).waitFor();

    const reset = await browser.newPage(); // another browser profile: logged out
    await reset.goto(`${s.url}/login`);
    await reset.getByRole('link', { name: 'Forgot your password?' }).click();
    await reset.getByLabel('User name or e-mail address').fill('ben@example.com');
    await reset.getByRole('button', { name: 'Send link' }).click();
    await reset.getByText('a link to reset its password is on its way').waitFor();
    await reset.goto(await mailedLink('ben@example.com'));
    await reset.getByLabel('New password', { exact: true }).fill('second-pass');
    await reset.getByLabel('Confirm password').fill('second-pass');
    await reset.getByRole('button', { name: 'Set password' }).click();
    await reset.getByText('Your password is changed').waitFor();
    const basic = `Basic ${Buffer.from('ben:second-pass').toString('base64')}`;
    assert.equal((await apiCall(s.url, 'GET', '/v1/account', basic))[0], 200);
    await reset.close();
    await page.close();
  });
});
