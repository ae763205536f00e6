import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, noChromium } from '../support/browser.js';
import { publish } from '../support/clients.js';
import { tempDir, type TestServer } from '../support/server.js';
import { startWebServer } from '../support/web-server.js';

/**
 * Light and dark: the system's scheme until the user picks one, kept across a reload.
 * `WEB_SCREENSHOTS=docs/screenshots` also saves the pictures docs/web-app.md shows.
 */

const screenshots = process.env.WEB_SCREENSHOTS;
let s: TestServer;
let browser: Browser;
const dir = tempDir();
before(async () => {
  if (noChromium) return;
  [s, browser] = await Promise.all([startWebServer(dir), launchBrowser()]);
  await publishSamples();
});
after(() => Promise.all([s?.server.close(), browser?.close()]));

/** A few messages of the kinds the app shows, the image rendered by Chromium itself. */
async function publishSamples(): Promise<void> {
  const painter = await browser.newPage({ viewport: { width: 480, height: 200 } });
  await painter.setContent(`<body style="margin:0;background:linear-gradient(120deg,#2f7d6d,#5cc2ab);font:600 28px system-ui;color:#fff;display:grid;place-items:center;height:200px">CPU 97 % on srv1</body>`);
  const chart = await painter.screenshot();
  await painter.close();
  const topic = `${s.url}/ops`;
  await publish(topic, 'Nightly backup finished in 42 min.', { Title: 'Backup done', Tags: 'white_check_mark,srv1', Priority: '2' });
  await publish(topic, 'The nightly backup stopped after **2 h 14 min**:\n\n- `/srv/db` copied\n- `/srv/media` *not copied* (disk full)', {
    Title: 'Backup of srv1 failed',
    Tags: 'warning,floppy_disk,srv1',
    Priority: '4',
    Markdown: 'yes',
    Click: 'https://grafana.example.com/d/backups',
    Actions: 'view, Open logs, https://logs.example.com/srv1; http, Retry, https://api.example.com/retry',
  });
  await publish(`${topic}?filename=cpu.png&title=${encodeURIComponent('CPU alert')}&tags=rotating_light&priority=5`, chart, {}, 'PUT');
}

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
    if (screenshots) mkdirSync(screenshots, { recursive: true });
    const page = await openOps('light');
    assert.equal(await background(page), 'rgb(245, 246, 248)');
    if (screenshots) await page.screenshot({ path: join(screenshots, 'app-light.png') });
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
    if (screenshots) {
      await dark.screenshot({ path: join(screenshots, 'app-dark.png') });
      await dark.getByRole('button', { name: 'Publish' }).click();
      await dark.locator('input[name=title]').fill('Deploy finished');
      await dark.locator('textarea[name=message]').fill('Version **2.4.1** is live on all nodes.');
      await dark.locator('input[name=tags]').fill('rocket');
      await dark.screenshot({ path: join(screenshots, 'publish-dark.png') });
    }
    await dark.close();
  });
});
