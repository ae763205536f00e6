import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { launchBrowser, noChromium, waitInPage } from '../test/support/browser.js';
import { LineStream, SseStream, WsStream, publish } from '../test/support/clients.js';
import { publishSamples, steadyLoad } from '../test/support/sample-messages.js';
import type { TestServer } from '../test/support/server.js';
import { adminPassword, startWebServer } from '../test/support/web-server.js';

/**
 * Draws the pictures of the docs (docs/screenshots/, shown by docs/web-app.md and
 * docs/operations.md) against a real Tocsin with a few topics and messages: the web app at
 * desktop (1280×800) and phone (390×844) sizes in light and dark, the publish dialog, and
 * the live dashboard after half a minute of a small load. Not a test (npm test does not run
 * it): `npm run build && node dist/bench/screenshots.js [DIR]`, DIR docs/screenshots unless
 * given. Needs Chromium (as the browser tests), and fonts-noto-color-emoji for the emojis.
 */

const sizes: Record<'desktop' | 'phone', BrowserContextOptions> = {
  desktop: { viewport: { width: 1280, height: 800 } },
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
};
const schemes = ['light', 'dark'] as const;

/** Other topics beside ops (publishSamples), so the list of topics shows a few. */
async function publishTopics(base: string): Promise<void> {
  await publish(`${base}/deploys`, 'Version 2.4.1 is live on all nodes.', { Title: 'Deploy finished', Tags: 'rocket' });
  await publish(`${base}/home`, 'The front door was opened at 07:42.', { Title: 'Front door', Tags: 'door' });
}

/** A browser context that has opened each topic (opening one subscribes to it) and shows ops with its three messages. */
async function openApp(browser: Browser, base: string, options: BrowserContextOptions): Promise<Page> {
  const page = await (await browser.newContext(options)).newPage();
  for (const topic of ['home', 'deploys', 'ops']) {
    await page.goto(`${base}/${topic}`);
    await page.locator('.card').first().waitFor();
  }
  await page.locator('.card').nth(2).waitFor();
  await page.locator('img.attachment-preview').evaluate('(img) => img.decode()');
  return page;
}

async function drawApp(browser: Browser, base: string, dir: string): Promise<void> {
  for (const [size, options] of Object.entries(sizes)) {
    for (const colorScheme of schemes) {
      const page = await openApp(browser, base, { ...options, colorScheme });
      await page.screenshot({ path: join(dir, `${size}-${colorScheme}.png`) });
      if (size === 'desktop' && colorScheme === 'dark') {
        await page.getByRole('button', { name: 'Publish' }).click();
        await page.locator('input[name=title]').fill('Deploy finished');
        await page.locator('textarea[name=message]').fill('Version **2.4.1** is live on all nodes.');
        await page.locator('input[name=tags]').fill('rocket');
        await page.screenshot({ path: join(dir, 'publish-dark.png') });
      }
      await page.context().close();
    }
  }
}

/** The dashboard, dark, as an admin sees it with a few subscribers and 5 messages a second. */
async function drawDashboard(browser: Browser, base: string, dir: string): Promise<void> {
  const subscribers = [new LineStream(`${base}/deploys/json`), new LineStream(`${base}/builds/json`), new SseStream(`${base}/deploys/sse`), ...[1, 2, 3].map(() => new WsStream(`${base}/deploys/ws`))];
  const load = steadyLoad(base, ['deploys', 'deploys', 'builds'], 5);
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 640 }, colorScheme: 'dark' });
    await page.goto(`${base}/dashboard`);
    const form = page.getByRole('form', { name: 'Log in' });
    await form.locator('input[name=username]').fill('admin');
    await form.locator('input[name=password]').fill(adminPassword);
    await form.getByRole('button', { name: 'Log in' }).click();
    await waitInPage(page, `document.querySelector('.chart')?.dataset.points >= 30`, 60_000); // half a minute of history
    await page.screenshot({ path: join(dir, 'dashboard.png') });
    await page.close();
  } finally {
    load.stop();
    subscribers.forEach((subscriber) => subscriber.close());
  }
}

async function main(): Promise<void> {
  if (noChromium) throw new Error(noChromium);
  const dir = resolve(process.argv[2] ?? 'docs/screenshots');
  mkdirSync(dir, { recursive: true });
  const files = mkdtempSync(join(tmpdir(), 'tocsin-screenshots-'));
  let server: TestServer | undefined;
  const browser = await launchBrowser();
  try {
    server = await startWebServer(files, { 'enable-dashboard': true });
    await publishSamples(browser, server.url);
    await publishTopics(server.url);
    await drawApp(browser, server.url, dir);
    await drawDashboard(browser, server.url, dir);
    console.log(`screenshots: written to ${dir}`);
  } finally {
    await Promise.all([server?.server.close(), browser.close()]);
    rmSync(files, { recursive: true, force: true });
  }
}

await main();
