import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { freshContext, launchBrowser, noChromium, waitInPage } from '../support/browser.js';
import { startTestProvider, type TestProvider } from '../support/oidc-provider.js';
import { tempDir, type TestServer } from '../support/server.js';
import { freePort, startWebServer } from '../support/web-server.js';

/** Single sign-on in the web app (issue 38): the login page's button, through a real provider, back logged in. */

const dir = tempDir();
let s: TestServer;
let idp: TestProvider;
let browser: Browser;
before(async () => {
  if (noChromium) return;
  const port = await freePort();
  idp = await startTestProvider(`http://127.0.0.1:${port}/v1/auth/oidc/callback`);
  idp.people.set('sub-eve', { preferred_username: 'eve' });
  idp.signInAs('sub-eve');
  const settings = { 'listen-http': `127.0.0.1:${port}`, 'base-url': `http://127.0.0.1:${port}`, 'auth-oidc-issuer': idp.issuer, 'auth-oidc-client-id': idp.clientId, 'auth-oidc-client-secret': idp.clientSecret };
  [s, browser] = await Promise.all([startWebServer(dir, settings), launchBrowser()]);
});
after(() => Promise.all([s?.server.close(), idp?.close(), browser?.close()]));

describe('web app in Chromium — single sign-on', { skip: noChromium }, () => {
  it('"Sign in with SSO" goes through the provider and comes back to the app logged in', async () => {
    const context = await freshContext(browser);
    const page = await context.newPage();
    await page.goto(`${s.url}/login`);
    await page.getByRole('link', { name: 'Sign in with SSO' }).click();
    await page.waitForURL(`${s.url}/`);
    await waitInPage(page, 'localStorage.getItem("tocsin.session") !== null');
    const session = JSON.parse((await page.evaluate('localStorage.getItem("tocsin.session")')) as string) as { username: string; token: string };
    assert.equal(session.username, 'eve');
    assert.equal((await fetch(`${s.url}/v1/account`, { headers: { Authorization: `Bearer ${session.token}` } })).status, 200);
    await page.goto(`${s.url}/account`);
    await page.getByRole('heading', { name: /^eve \(/ }).waitFor();
    await context.close();
  });
});
