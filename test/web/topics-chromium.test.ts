import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { freshContext, launchBrowser, noChromium } from '../support/browser.js';
import { publish } from '../support/clients.js';
import { tempDir, type TestServer } from '../support/server.js';
import { adminPassword, startWebServer } from '../support/web-server.js';

/** Protected and rate-limited topics in the web app (issue 40, item 3), in Chromium against real servers. */

let guarded: TestServer;
let limited: TestServer;
let browser: Browser;
const dir = tempDir();
const limitedDir = tempDir();
const basicAdmin = { Authorization: `Basic ${Buffer.from(`admin:${adminPassword}`).toString('base64')}` };

before(async () => {
  if (noChromium) return;
  [guarded, limited, browser] = await Promise.all([
    startWebServer(dir, { 'auth-default-access': 'deny-all' }),
    // Three requests, then one more an hour: the page's first poll is refused.
    startWebServer(limitedDir, { 'visitor-request-limit-burst': 3, 'visitor-request-limit-replenish': '1h' }),
    launchBrowser(),
  ]);
});
after(() => Promise.all([guarded?.server.close(), limited?.server.close(), browser?.close()]));

/** How many polls of `topic` the page sends from now on. */
function countPolls(page: Page, topic: string): () => number {
  let polls = 0;
  page.on('request', (req) => {
    if (new URL(req.url()).pathname === `/${topic}/json`) polls++;
  });
  return () => polls;
}

describe('protected and limited topics in Chromium (issue 40, item 3)', { skip: noChromium }, () => {
  it('a topic the visitor may not read stops retrying, asks for a login, and connects after it', async () => {
    const context = await freshContext(browser);
    const page = await context.newPage();
    const polls = countPolls(page, 'vault');
    await page.goto(`${guarded.url}/vault`);
    await page.locator('.state-denied').waitFor();
    const note = page.locator('.connection-note');
    assert.equal(await note.innerText(), 'vault is protected: log in with an account that may read it, and it connects again.');
    // The backoff would have retried after 1 s and 2 s: a refused topic is not retried at all.
    await page.waitForTimeout(3500);
    assert.equal(polls(), 1);
    assert.equal(await page.locator('.state-denied').count(), 1);
    await note.getByRole('link', { name: 'log in' }).click();
    await page.locator('input[name=username]').fill('admin');
    await page.locator('input[name=password]').fill(adminPassword);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: /^admin \(/ }).waitFor();
    await page.locator('.topics a', { hasText: 'vault' }).click();
    await page.locator('.state-live').waitFor();
    assert.equal(await note.count(), 0);
    await publish(`${guarded.url}/vault`, 'the combination', basicAdmin);
    await page.locator('.message-text', { hasText: 'the combination' }).waitFor();
    await context.close();
  });

  it('a 429 says the server limits this browser and when the next try is', async () => {
    // Spend the burst from the same address before the page subscribes.
    for (let i = 0; i < 3; i++) await fetch(`${limited.url}/spent/json?poll=1`);
    assert.equal((await fetch(`${limited.url}/spent/json?poll=1`)).status, 429);
    const context = await freshContext(browser);
    const page = await context.newPage();
    const before = Date.now();
    await page.goto(`${limited.url}/busy`);
    await page.locator('.state-limited').waitFor();
    const note = page.locator('.connection-note');
    assert.match(await note.innerText(), /^The server is limiting requests from this browser \(too many requests\), so busy is not receiving notifications\. Tocsin tries again at .+, waiting longer after each refusal\.$/);
    // The first retry comes a second after the refusal (the backoff's first step).
    const retryAt = Date.parse((await note.locator('time').getAttribute('datetime')) ?? '');
    assert.ok(retryAt >= before + 1000 && retryAt <= Date.now() + 1000, `${retryAt - before} ms after the page opened`);
    await context.close();
  });
});
