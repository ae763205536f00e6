import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, noChromium } from '../support/browser.js';
import { publishSamples } from '../support/sample-messages.js';
import { tempDir, type TestServer } from '../support/server.js';
import { startWebServer } from '../support/web-server.js';

/** Light and dark: the system's scheme until the user picks one, kept across a reload (bench/screenshots.ts draws the docs' pictures). */

let s: TestServer;
let browser: Browser;
const dir = tempDir();
before(async () => {
  if (noChromium) return;
  [s, browser] = await Promise.all([startWebServer(dir), launchBrowser()]);
  await publishSamples(browser, s.url);
});
after(() => Promise.all([s?.server.close(), browser?.close()]));

async function openOps(colorScheme: 'light' | 'dark'): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1100, height: 760 }, colorScheme });
  await page.goto(`${s.url}/ops`);
  await page.locator('.card').nth(2).waitFor();
  await page.locator('img.attachment-preview').evaluate('(img) => img.decode()');
  return page;
}

const background = (page: Page): Promise<unknown> => page.evaluate('getComputedStyle(document.body.parentElement).backgroundColor');

describe('web app in Chromium — light and dark', { skip: noChromium }, () => {
  it('follows the system scheme, and keeps the one picked with the toggle across a reload', async () => {
    const page = await openOps('light');
    assert.equal(await background(page), 'rgb(245, 246, 248)');
    await page.getByRole('button', { name: 'Dark mode' }).click();
    // The toggle sets data-theme in an effect, which Preact runs after the next paint.
    await page.locator('html[data-theme=dark]').waitFor({ state: 'attached' });
    assert.equal(await background(page), 'rgb(18, 20, 23)');
    await page.reload();
    await page.locator('.card').nth(2).waitFor();
    assert.equal(await background(page), 'rgb(18, 20, 23)');
    await page.close();

    const dark = await openOps('dark');
    assert.equal(await background(dark), 'rgb(18, 20, 23)');
    await dark.close();
  });

  it('fits a phone screen (390 px): nothing wider than it, so nothing cut off at its edge', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    await page.goto(`${s.url}/ops`);
    await page.locator('.card').nth(2).waitFor();
    assert.deepEqual(await page.evaluate('[document.documentElement.scrollWidth, document.documentElement.clientWidth]'), [390, 390]);
    await context.close();
  });
});
