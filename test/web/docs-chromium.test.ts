import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, noChromium, waitInPage } from '../support/browser.js';
import { PrefixProxy } from '../support/prefix-proxy.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { freePort } from '../support/web-server.js';

/**
 * The docs site in Chromium: it works offline under its Content-Security-Policy (no
 * violation reported, no request leaves the server), its local search finds a setting,
 * and behind a proxy that strips a path prefix every page, file and link stays below it.
 */

let s: TestServer;
let prefixed: TestServer;
let proxy: PrefixProxy;
let browser: Browser;
before(async () => {
  if (noChromium) return;
  const port = await freePort();
  [s, prefixed, browser] = await Promise.all([startTestServer(), startTestServer({ 'base-url': `http://127.0.0.1:${port}/ntfy` }), launchBrowser()]);
  proxy = await PrefixProxy.start('/ntfy', prefixed.url, port);
});
after(() => Promise.all([proxy?.close(), s?.server.close(), prefixed?.server.close(), browser?.close()]));

interface Watched {
  page: Page;
  /** CSP violations the page reported, as events and as console errors. */
  violations: () => Promise<string[]>;
  /** Every request that went elsewhere than `origin`, failed, or was answered with an error. */
  strays: string[];
}

async function watchedPage(origin: string): Promise<Watched> {
  const page = await browser.newPage();
  const console: string[] = [];
  const strays: string[] = [];
  page.on('pageerror', (err) => assert.fail(`page error: ${err.message}`));
  page.on('console', (m) => {
    if (m.text().includes('Content Security Policy')) console.push(m.text());
  });
  page.on('requestfailed', (req) => strays.push(`failed ${req.url()}`));
  page.on('response', (res) => {
    if (!res.url().startsWith(origin) || res.status() >= 400) strays.push(`${res.status()} ${res.url()}`);
  });
  // Page scripts as text: this file is compiled without the DOM's types.
  await page.addInitScript("window.cspViolations = []; document.addEventListener('securitypolicyviolation', (e) => window.cspViolations.push(e.effectiveDirective + ' ' + e.blockedURI));");
  const violations = async (): Promise<string[]> => [...console, ...(await page.evaluate<string[]>('window.cspViolations'))];
  return { page, violations, strays };
}

/** Opens the local search, types `query`, and answers the results' links and labels. */
async function search(page: Page, query: string): Promise<{ href: string | null; label: string | null }[]> {
  await page.getByRole('button', { name: 'Search' }).click();
  await page.locator('.search-input').fill(query);
  const results = page.locator('.VPLocalSearchBox a.result');
  await results.first().waitFor();
  return Promise.all((await results.all()).map(async (link) => ({ href: await link.getAttribute('href'), label: await link.getAttribute('aria-label') })));
}

describe('docs site in Chromium', { skip: noChromium }, () => {
  it('loads, navigates and searches under its policy with no violation, nothing from elsewhere; the search finds cache-duration', async () => {
    const { page, violations, strays } = await watchedPage(s.url);
    await page.goto(`${s.url}/docs/`);
    await page.getByRole('link', { name: 'Configuration', exact: true }).first().click();
    await page.locator('h1', { hasText: 'Configuration' }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/docs/configuration');

    const found = await search(page, 'cache-duration');
    assert.ok(found.some((r) => r.href?.startsWith('/docs/configuration') && /Configuration/.test(r.label ?? '')), JSON.stringify(found.slice(0, 5)));
    await page.locator('.VPLocalSearchBox a.result').first().click();
    await page.locator('.VPLocalSearchBox').waitFor({ state: 'detached' });
    assert.deepEqual(await violations(), []);
    assert.deepEqual(strays, []);

    // The watch sees a violation when there is one: an injected inline script does not run.
    await page.addScriptTag({ content: 'window.injected = true' }).catch(() => undefined);
    await waitInPage(page, 'window.cspViolations.length > 0');
    assert.equal(await page.evaluate('window.injected'), undefined);
    await page.close();
  });

  it('shows the screenshots on the web app page, desktop and phone, light and dark', async () => {
    const { page, violations, strays } = await watchedPage(s.url);
    await page.goto(`${s.url}/docs/web-app`);
    await page.locator('img[alt="The publish dialog, dark"]').waitFor();
    await waitInPage(page, '[...document.images].every((img) => img.complete)');
    const shown = await page.evaluate<[string, number][]>('[...document.querySelectorAll(".vp-doc img")].map((img) => [img.alt, img.naturalWidth])');
    assert.deepEqual(shown, [
      ['The web app on a desktop, light', 1280],
      ['The web app on a desktop, dark', 1280],
      ['The web app on a phone, light', 390],
      ['The web app on a phone, dark', 390],
      ['The publish dialog, dark', 1280],
    ]);
    assert.deepEqual(await violations(), []);
    assert.deepEqual(strays, []);
    await page.close();
  });

  it('stays below /ntfy behind a proxy that strips it: pages, files, links and search', async () => {
    const origin = `http://127.0.0.1:${proxy.port}`;
    const { page, violations, strays } = await watchedPage(origin);
    await page.goto(`${origin}/ntfy/docs`);
    assert.equal(new URL(page.url()).pathname, '/ntfy/docs/');
    await page.getByRole('link', { name: 'Configuration', exact: true }).first().click();
    await page.locator('h1', { hasText: 'Configuration' }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/ntfy/docs/configuration');

    const found = await search(page, 'cache-duration');
    assert.ok(found.some((r) => r.href?.startsWith('/ntfy/docs/configuration')), JSON.stringify(found.slice(0, 5)));
    await page.reload();
    await page.locator('h1', { hasText: 'Configuration' }).waitFor();
    assert.deepEqual(await violations(), []);
    assert.deepEqual(strays, []);
    await page.close();
  });
});
