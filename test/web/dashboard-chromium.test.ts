import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, noChromium, waitInPage } from '../support/browser.js';
import { LineStream, SseStream, WsStream } from '../support/clients.js';
import { steadyLoad } from '../support/sample-messages.js';
import { tempDir, type TestServer } from '../support/server.js';
import { adminPassword, startWebServer } from '../support/web-server.js';

/**
 * The live dashboard in Chromium against a real Tocsin under a small load: an admin logs
 * in, and the page's figures and charts follow the server second by second
 * (bench/screenshots.ts draws the docs' picture of it).
 */

let s: TestServer;
let browser: Browser;
const dir = tempDir();
before(async () => {
  if (noChromium) return;
  [s, browser] = await Promise.all([startWebServer(dir, { 'enable-dashboard': true }), launchBrowser()]);
});
after(() => Promise.all([s?.server.close(), browser?.close()]));

async function openDashboard(colorScheme: 'light' | 'dark' = 'light'): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 640 }, colorScheme });
  page.on('pageerror', (err) => assert.fail(`page error: ${err.message}`));
  await page.goto(`${s.url}/dashboard`);
  return page;
}

async function logIn(page: Page, username: string, password: string): Promise<void> {
  const form = page.getByRole('form', { name: 'Log in' });
  await form.locator('input[name=username]').fill(username);
  await form.locator('input[name=password]').fill(password);
  await form.getByRole('button', { name: 'Log in' }).click();
}

/** The text of a tile's value. */
const tile = (page: Page, label: string): Promise<string | null> => page.getByRole('group', { name: label }).locator('.tile-value').textContent();

/** Waits until the page's `expression` (run in the page) is true; the page redraws once a second. */
const until = (page: Page, expression: string, timeout = 10_000): Promise<void> => waitInPage(page, expression, timeout);

describe('dashboard in Chromium — under a small load', { skip: noChromium }, () => {
  it('asks for a login, refuses a user who is no admin, and tells why', async () => {
    await fetch(`${s.url}/v1/account`, { method: 'POST', body: JSON.stringify({ username: 'phil', password: 'phil-pass' }) });
    const page = await openDashboard();
    await logIn(page, 'phil', 'phil-pass');
    await page.getByText('phil is no admin').waitFor();
    assert.equal(await page.getByRole('status').textContent(), 'forbidden');
    await page.getByRole('button', { name: 'Log out phil' }).click();
    await page.getByRole('form', { name: 'Log in' }).waitFor();
    await page.close();
  });

  it('an admin sees the subscriptions opened, messages and deliveries per second, the busiest topic, and charts that move', async () => {
    // given: 6 subscriptions (2 json, 1 sse, 3 ws; 5 on `deploys`), and 5 messages a second to deploys and builds
    const subscribers = [
      new LineStream(`${s.url}/deploys/json`),
      new LineStream(`${s.url}/builds/json`),
      new SseStream(`${s.url}/deploys/sse`),
      ...[1, 2, 3].map(() => new WsStream(`${s.url}/deploys/ws`)),
    ];
    const publisher = steadyLoad(s.url, ['deploys', 'deploys', 'builds'], 5);
    after(() => {
      publisher.stop();
      subscribers.forEach((c) => c.close());
    });

    // when: the admin logs in
    const page = await openDashboard('dark');
    await logIn(page, 'admin', adminPassword);
    await page.locator('.status-live').waitFor();

    // then: the figures are the server's
    await until(page, `document.querySelector('[aria-label="Subscriptions"] .tile-value')?.textContent === '6'`);
    assert.equal(await page.getByRole('group', { name: 'Subscriptions' }).locator('.tile-note').textContent(), 'json 2 · sse 1 · raw 0 · ws 3');
    await until(page, `Number(document.querySelector('[data-series="messages"] strong')?.textContent) >= 4`);
    const deliveries = Number(await page.locator('[data-series="deliveries"] strong').textContent());
    assert.ok(deliveries >= 10, `deliveries/s ${deliveries}: ~3.3 messages/s to deploys reach 5 subscribers`);
    // deploys leads in a second that is not a tie (a tie lists builds first, by name)
    await until(page, `document.querySelector('[aria-label="Busiest topics"] tbody tr:first-child td:first-child')?.textContent === 'deploys'`);
    assert.equal(await tile(page, 'Scheduled waiting'), '0');
    assert.match((await tile(page, 'Cache size')) ?? '', /^\d+(\.\d)? (byte|kB|MB)$/);
    assert.equal(await page.locator('.chart canvas').count(), 3, 'uPlot drew three charts');

    // and the charts move: a point a second
    const points = Number(await page.locator('.chart').first().getAttribute('data-points'));
    await until(page, `Number(document.querySelector('.chart').dataset.points) >= ${points + 2}`);
    const cached = Number((await page.getByRole('group', { name: 'Cache size' }).locator('.tile-note').textContent())?.split(' ')[0]);
    assert.ok(cached > 0 && cached <= publisher.sent(), `the cache holds ${cached} of the ${publisher.sent()} messages sent`);
    assert.equal(await page.evaluate('getComputedStyle(document.body.parentElement).backgroundColor'), 'rgb(18, 20, 23)', 'dark, as the app');
    await page.close();
  });
});
