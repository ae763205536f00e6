import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { freshContext, launchBrowser, noChromium } from '../support/browser.js';
import { tempDir, type TestServer } from '../support/server.js';
import { startWebServer } from '../support/web-server.js';

/**
 * The web app behind an authenticating proxy (issue 38 item 1): the browser sends the
 * header a proxy would add to every request (the test's peer, 127.0.0.1, is the trusted
 * proxy), and the app shows the user logged in with no login page, even with require-login.
 */

const logoutUrl = 'https://sso.example.test/logout';
let s: TestServer;
let browser: Browser;
const dir = tempDir();
before(async () => {
  if (noChromium) return;
  const settings = {
    'require-login': true,
    'behind-proxy': true,
    'proxy-trusted-hosts': ['127.0.0.1'],
    'auth-user-header': 'X-Forwarded-User',
    'auth-user-auto-create': true,
    'auth-logout-url': logoutUrl,
  };
  [s, browser] = await Promise.all([startWebServer(dir, settings), launchBrowser()]);
});
after(() => Promise.all([s?.server.close(), browser?.close()]));

describe('web app in Chromium — logged in by a trusted proxy', { skip: noChromium }, () => {
  it('shows the user the proxy names without a login page, and logout goes to auth-logout-url', async () => {
    // Given: a browser whose every request carries the proxy's header for carol, who does not exist yet.
    const context = await freshContext(browser, { extraHTTPHeaders: { 'X-Forwarded-User': 'carol' } });
    await context.route(logoutUrl, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<p>signed out</p>' }));
    const page = await context.newPage();

    // When: they open the app.
    await page.goto(`${s.url}/`);

    // Then: the top bar names carol, no login form is shown, and the session holds no token.
    await page.getByRole('link', { name: 'carol' }).waitFor();
    assert.equal(await page.locator('input[name=password]').count(), 0);
    assert.equal(new URL(page.url()).pathname, '/');
    const stored = JSON.parse((await page.evaluate('localStorage.getItem("tocsin.session")')) as string) as Record<string, unknown>;
    assert.deepEqual(stored, { username: 'carol', token: '', proxied: true });

    // And: the account page shows her, and its logout leaves for the proxy's logout page.
    await page.getByRole('link', { name: 'carol' }).click();
    await page.getByRole('heading', { name: 'carol (user)' }).waitFor();
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(logoutUrl);
    assert.equal(await page.locator('p').textContent(), 'signed out');
    await context.close();
  });
});
