import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { Message } from '../../src/model/message.js';
import { launchBrowser, noChromium, waitInPage } from '../support/browser.js';
import { publish } from '../support/clients.js';
import { tempDir, type TestServer } from '../support/server.js';
import { adminPassword, startWebServer } from '../support/web-server.js';

/**
 * The pages under their Content-Security-Policy in Chromium (issue 33, finding 8): the app
 * and the dashboard load and work with it and the browser reports no violation; a stored
 * `javascript:` link (from before the publish check) is shown, never linked.
 */

let s: TestServer;
let browser: Browser;
before(async () => {
  if (noChromium) return;
  [s, browser] = await Promise.all([startWebServer(tempDir(), { 'enable-dashboard': true }), launchBrowser()]);
});
after(() => Promise.all([s?.server.close(), browser?.close()]));

/** A page that records every CSP violation the browser reports, as events and as console errors. */
async function watchedPage(): Promise<{ page: Page; violations: () => Promise<string[]> }> {
  const page = await browser.newPage();
  const console: string[] = [];
  page.on('pageerror', (err) => assert.fail(`page error: ${err.message}`));
  page.on('console', (m) => {
    if (m.text().includes('Content Security Policy')) console.push(m.text());
  });
  // Page scripts as text: this file is compiled without the DOM's types.
  await page.addInitScript("window.cspViolations = []; document.addEventListener('securitypolicyviolation', (e) => window.cspViolations.push(e.effectiveDirective + ' ' + e.blockedURI));");
  const violations = async (): Promise<string[]> => [...console, ...(await page.evaluate<string[]>('window.cspViolations'))];
  return { page, violations };
}

describe('web pages in Chromium — under the Content-Security-Policy', { skip: noChromium }, () => {
  it('the app subscribes, receives a message with a click, actions and Markdown, with no violation reported', async () => {
    const { page, violations } = await watchedPage();
    const response = await page.goto(`${s.url}/csp`);
    assert.match(response?.headers()['content-security-policy'] ?? '', /^default-src 'self'; script-src 'self'; style-src 'self'/);
    await page.locator('.state-live').waitFor();
    const sent = await publish(`${s.url}/csp`, 'Disk **almost** full', { Click: 'mailto:ops@example.com', Markdown: 'yes', Actions: 'view, Map, "geo:0,0?q=Berlin"; http, Retry, https://api.example.com/retry' });
    const card = page.locator(`.card[data-id="${sent.json.id}"]`);
    await card.waitFor();
    assert.equal(await card.locator('a.click').getAttribute('href'), 'mailto:ops@example.com');
    assert.equal(await card.getByRole('link', { name: 'Map' }).getAttribute('href'), 'geo:0,0?q=Berlin');
    assert.equal(await card.locator('.message-markdown strong').innerText(), 'almost');
    assert.deepEqual(await violations(), []);

    // And the watch sees a violation when there is one: an injected inline script does not run.
    await page.addScriptTag({ content: 'window.injected = true' }).catch(() => undefined);
    await waitInPage(page, 'window.cspViolations.length > 0');
    assert.equal(await page.evaluate('window.injected'), undefined);
    assert.match((await violations()).join(), /script-src-elem inline/);
    await page.close();
  });

  it('the dashboard logs an admin in and goes live over its WebSocket, with no violation reported', async () => {
    const { page, violations } = await watchedPage();
    await page.goto(`${s.url}/dashboard`);
    const form = page.getByRole('form', { name: 'Log in' });
    await form.locator('input[name=username]').fill('admin');
    await form.locator('input[name=password]').fill(adminPassword);
    await form.getByRole('button', { name: 'Log in' }).click();
    await page.locator('.status-live').waitFor();
    assert.equal(await page.locator('.chart canvas').count(), 3, 'uPlot drew its charts');
    assert.deepEqual(await violations(), []);
    await page.close();
  });

  it('a javascript: click and view action already stored are shown as text, not links (defence in depth)', async () => {
    // Given: a message stored before the publish check refused such URLs.
    const now = Math.floor(Date.now() / 1000);
    const xss = 'javascript:document.title="pwned"';
    const message: Message = { id: 'oldxss000001', time: now, expires: now + 3600, event: 'message', topic: 'old', message: 'from before', click: xss, actions: [{ id: 'a1', action: 'view', label: 'Open', url: xss, clear: false }] };
    await s.server.context.cache.add([{ message, json: JSON.stringify(message), published: true }]);

    // When: the app shows the topic.
    const { page, violations } = await watchedPage();
    await page.goto(`${s.url}/old`);
    const card = page.locator('.card[data-id="oldxss000001"]');
    await card.waitFor();

    // Then: no link carries the URL, and the view button is disabled.
    assert.equal(await card.locator('.click').innerText(), xss);
    assert.equal(await card.locator('a[href^="javascript"]').count(), 0);
    assert.equal(await card.getByRole('button', { name: 'Open' }).isDisabled(), true);
    assert.deepEqual(await violations(), []);
    await page.close();
  });
});
