import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser, noChromium } from '../support/browser.js';
import { publish } from '../support/clients.js';
import { PrefixProxy } from '../support/prefix-proxy.js';
import { tempDir, type TestServer } from '../support/server.js';
import { freePort, startWebServer } from '../support/web-server.js';

/**
 * The web app behind a reverse proxy that strips a path prefix (base-url
 * http://host/ntfy): every page, file and API call goes below the prefix, and a dropped
 * WebSocket is reopened with since= the last id.
 */

let s: TestServer;
let proxy: PrefixProxy;
let browser: Browser;
const dir = tempDir();
before(async () => {
  if (noChromium) return;
  const port = await freePort();
  [s, browser] = await Promise.all([startWebServer(dir, { 'base-url': `http://127.0.0.1:${port}/ntfy` }), launchBrowser()]);
  proxy = await PrefixProxy.start('/ntfy', s.url, port);
});
after(() => Promise.all([proxy?.close(), s?.server.close(), browser?.close()]));

describe('web app in Chromium — behind a path prefix', { skip: noChromium }, () => {
  it('loads and subscribes below /ntfy, and after a dropped WebSocket reconnects with since= the last id, missing nothing', async () => {
    const page = await browser.newPage();
    page.on('pageerror', (err) => assert.fail(`page error: ${err.message}`));
    await page.goto(`http://127.0.0.1:${proxy.port}/ntfy/night`);
    await page.locator('.state-live').waitFor();
    assert.deepEqual(proxy.upgrades, ['/night/ws?since=all']);

    const first = await publish(`${s.url}/night`, 'before the drop');
    await page.locator(`.card[data-id="${first.json.id}"]`).waitFor();
    proxy.dropSockets();
    await page.locator('.state-retrying').waitFor();
    const missed = await publish(`${s.url}/night`, 'while disconnected');
    await page.locator(`.card[data-id="${missed.json.id}"]`).waitFor();
    // The reconnect polls from the last id first (that poll fetches the missed message), then opens the socket from there.
    assert.deepEqual(proxy.upgrades, ['/night/ws?since=all', `/night/ws?since=${missed.json.id}`]);
    assert.deepEqual(await page.locator('.card .message-text').allInnerTexts(), ['while disconnected', 'before the drop']);

    await page.getByRole('link', { name: 'Settings' }).click();
    assert.equal(new URL(page.url()).pathname, '/ntfy/settings');
    await page.close();
  });

  it('registers its service worker and manifest below /ntfy, so the installed app stays under the prefix', async () => {
    const page = await browser.newPage();
    const base = `http://127.0.0.1:${proxy.port}/ntfy/`;
    await page.goto(`${base}night`);
    assert.equal(await page.evaluate('navigator.serviceWorker.ready.then((r) => r.active.scriptURL + " " + r.scope)'), `${base}sw.js ${base}`);
    const manifest = await (await page.context().newCDPSession(page)).send('Page.getAppManifest');
    assert.deepEqual([manifest.url, manifest.errors], [`${base}manifest.webmanifest`, []]);
    await page.close();
  });
});
