import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { apiCall, basic } from '../support/account-api.js';
import { violations } from '../support/axe.js';
import { freshContext, launchBrowser, logInAs, noChromium, openTopic as openTopicAt, waitInPage } from '../support/browser.js';
import { publish } from '../support/clients.js';
import { tempDir, type TestServer } from '../support/server.js';
import { adminPassword, startWebServer } from '../support/web-server.js';

/**
 * The web app's accessibility (issue 40, WCAG 2.2 AA) in Chromium against a real Tocsin: the
 * publish dialog as a keyboard modal, aria-current, announced messages, tap targets on a
 * phone, and axe-core on every page (the admin pages too) in both themes.
 */

let s: TestServer;
let browser: Browser;
const dir = tempDir();
before(async () => {
  if (noChromium) return;
  // axe_closed: a protected topic, for the page's login prompt.
  [s, browser] = await Promise.all([startWebServer(dir, { 'auth-access': ['*:axe_closed:deny'] }), launchBrowser()]);
  // The admin pages with a row in each table: a user on a tier with a token, a group with a member and a grant.
  const admin = basic('admin', adminPassword);
  for (const [method, path, body] of [
    ['POST', '/v1/tiers', { code: 'axe_tier', name: 'Axe' }],
    ['POST', '/v1/users', { username: 'axe_user', password: 'secret', tier: 'axe_tier' }],
    ['POST', '/v1/groups', { name: 'axe_group' }],
    ['PUT', '/v1/groups/members', { group: 'axe_group', username: 'axe_user' }],
    ['PUT', '/v1/users/access', { group: 'axe_group', topic: 'axe*', permission: 'ro' }],
  ] as const) assert.equal((await apiCall(s.url, method, path, admin, body))[0], 200, path);
  assert.equal((await apiCall(s.url, 'POST', '/v1/account/token', basic('axe_user'), { label: 'axe' }))[0], 200);
});
after(() => Promise.all([s?.server.close(), browser?.close()]));

const openTopic = (context: BrowserContext, topic: string): Promise<Page> => openTopicAt(context, s.url, topic);

/** What has the keyboard focus, as `name` or `tag` and whether it is inside the open dialog. */
const focused = (page: Page): Promise<{ name: string; inDialog: boolean }> =>
  page.evaluate(`({ name: document.activeElement.getAttribute('name') ?? document.activeElement.textContent.trim(), inDialog: !!document.activeElement.closest('[role=dialog]') })`);

/**
 * Until focus left the page's body: the dialog's cleanup gives it back to its opener, and
 * under load the test saw the dialog detached a moment before that (2 runs in 20, focus on
 * the opener a second later).
 */
const focusBack = (page: Page): Promise<void> => waitInPage(page, 'document.activeElement !== document.body');

describe('web app accessibility in Chromium (issue 40)', { skip: noChromium }, () => {
  it('the publish dialog is a modal: focus moves in, Tab stays in, Esc closes, focus returns after Esc and Cancel', async () => {
    const context = await freshContext(browser);
    const page = await openTopic(context, 'modal');
    const opener = page.getByRole('button', { name: 'Publish' });
    await opener.click();
    const dialog = page.getByRole('dialog', { name: 'Publish to modal' });
    assert.equal(await dialog.getAttribute('aria-modal'), 'true');
    assert.deepEqual(await focused(page), { name: 'topic', inDialog: true });
    const fields = await dialog.locator('input:not([disabled]), select, textarea, button:not([disabled])').count();
    for (let i = 0; i <= fields; i++) {
      await page.keyboard.press('Tab');
      assert.equal((await focused(page)).inDialog, true, `focus left the dialog after ${i + 1} Tabs`);
    }
    await dialog.locator('input[name=topic]').focus();
    await page.keyboard.press('Shift+Tab');
    assert.deepEqual(await focused(page), { name: 'Send', inDialog: true }, 'Shift+Tab from the first field goes to the last button');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await focusBack(page);
    assert.deepEqual(await focused(page), { name: 'Publish', inDialog: false });
    await opener.click();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    await focusBack(page);
    assert.deepEqual(await focused(page), { name: 'Publish', inDialog: false });
    await context.close();
  });

  it('marks the selected topic and page with aria-current, its count legible on the active tint', async () => {
    const context = await freshContext(browser);
    const page = await openTopic(context, 'current_one');
    await page.goto(`${s.url}/current_two`);
    await page.locator('.state-live').waitFor();
    assert.deepEqual(await page.locator('[aria-current=page]').allInnerTexts(), ['current_two\n0']);
    // The active row's count in the text colour (#1c1f24, 12.7:1 on the tint; the muted grey was 4.4:1).
    assert.equal(await page.evaluate('getComputedStyle(document.querySelector(".sidebar a.active .count")).color'), 'rgb(28, 31, 36)');
    await page.getByRole('link', { name: 'Settings' }).click();
    assert.deepEqual(await page.locator('[aria-current=page]').allInnerTexts(), ['Settings']);
    await context.close();
  });

  it('announces a new message through a polite live region', async () => {
    const context = await freshContext(browser);
    const page = await openTopic(context, 'announced');
    await publish(`${s.url}/announced`, 'Disk at 97%', { Title: 'Backup failed' });
    const status = page.getByRole('status');
    await status.filter({ hasText: 'Backup failed' }).waitFor({ state: 'attached' });
    assert.equal(await status.getAttribute('aria-live'), 'polite');
    assert.equal(await status.textContent(), 'New notification on announced: Backup failed Disk at 97%');
    await context.close();
  });

  it('gives every control and navigation link a 44 px tap target at phone width', async () => {
    const context = await freshContext(browser, { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    const page = await logInAs(context, s.url, 'admin', adminPassword);
    const pages = [`${s.url}/`, `${s.url}/settings`, `${s.url}/account`, `${s.url}/account/admin`];
    for (const url of pages) {
      await page.goto(url);
      await page.locator('main h2').first().waitFor();
      const small = (await page.evaluate(`[...document.querySelectorAll('button, .button, input:not([type=checkbox]), select, .sidebar a, .topbar a, label.inline')]
        .filter((e) => e.getClientRects().length > 0 && e.getBoundingClientRect().height < 44)
        .map((e) => e.outerHTML.slice(0, 80))`)) as string[];
      assert.deepEqual(small, [], url);
    }
    await context.close();
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`axe-core finds no violations on any page in the ${colorScheme} theme`, async () => {
      const context = await freshContext(browser, { colorScheme });
      await publish(`${s.url}/axe`, 'Nothing urgent', { Priority: '1', Tags: 'min_tag' });
      await publish(`${s.url}/axe`, 'Check the **disk**', { Priority: '4', Title: 'High', Markdown: 'yes', Tags: 'warning' });
      await publish(`${s.url}/axe`, 'Now', { Priority: '5', Title: 'Urgent', Click: 'https://example.com', Actions: 'view, Open, https://example.com; http, Retry, https://example.com' });
      const anonymous = ['', 'axe', 'settings', 'login', 'signup', 'account/password/reset', 'account/email/verify/not-a-token', 'account/password/reset/not-a-token'];
      const page = await openTopic(context, 'axe');
      await page.locator('.card').nth(2).waitFor();
      const found: Record<string, string[]> = {};
      for (const path of anonymous) {
        await page.goto(`${s.url}/${path}`);
        await page.locator('main h2').first().waitFor();
        found[`/${path}`] = await violations(page);
      }
      await page.goto(`${s.url}/axe`);
      await page.locator('.card').nth(2).waitFor();
      await page.getByRole('button', { name: 'Publish' }).click();
      await page.locator('.dialog').waitFor();
      found['publish dialog'] = await violations(page);
      await page.keyboard.press('Escape');
      // Unread cards (badge, tools, a link in plain text) on the list of every topic.
      await page.getByRole('link', { name: 'All notifications' }).click();
      await publish(`${s.url}/axe`, 'Details at https://example.com/status', { Title: 'Unread' });
      await page.locator('.card.unread').waitFor();
      found['unread cards'] = await violations(page);
      await page.goto(`${s.url}/axe_closed`);
      await page.locator('.connection-note').waitFor();
      found['protected topic'] = await violations(page);
      const account = await logInAs(context, s.url, 'admin', adminPassword);
      found['/account'] = await violations(account);
      await account.getByRole('link', { name: 'Admin', exact: true }).click();
      await account.getByRole('region', { name: 'Tokens of a user' }).getByLabel('User').selectOption('axe_user');
      await account.getByRole('button', { name: 'Revoke token axe' }).waitFor();
      found['/account/admin'] = await violations(account);
      assert.deepEqual(found, Object.fromEntries(Object.keys(found).map((k) => [k, []])));
      await context.close();
    });
  }
});
