import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser, noChromium } from '../support/browser.js';
import { startTestServer, type TestServer } from '../support/server.js';

/** The built pages as Chromium loads them from Tocsin: every file found, compressed, the scripts run. */

let s: TestServer;
let browser: Browser;
before(async () => {
  if (noChromium) return;
  [s, browser] = await Promise.all([startTestServer(), launchBrowser()]);
});
after(() => Promise.all([s?.server.close(), browser?.close()]));

describe('web pages in Chromium', { skip: noChromium }, () => {
  it('loads the app (subscribed to the topic of its path) and the dashboard, their files compressed by brotli', async () => {
    const page = await browser.newPage();
    const loaded: string[] = [];
    page.on('response', (res) => {
      if (res.url().includes('/static/')) loaded.push(`${res.status()} ${res.headers()['content-encoding']}`);
    });
    await page.goto(`${s.url}/mytopic`);
    await page.locator('.state-live').waitFor();
    await page.goto(`${s.url}/dashboard`);
    await page.getByText('The dashboard is off on this server').waitFor(); // its page, asking the feed (enable-dashboard is not set)
    assert.ok(loaded.length >= 2, loaded.join());
    assert.ok(loaded.some((r) => r === '200 br'), loaded.join());
    assert.ok(loaded.every((r) => r.startsWith('200')), loaded.join());
  });
});
