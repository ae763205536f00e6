import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, noChromium, shownNotifications } from '../support/browser.js';
import { publish, type Json } from '../support/clients.js';
import { tempDir, type TestServer } from '../support/server.js';
import { adminPassword, startWebServer } from '../support/web-server.js';

/** The web app in Chromium against a real Tocsin: what a user does, and what the server then holds. */

let s: TestServer;
let browser: Browser;
const dir = tempDir();
before(async () => {
  if (noChromium) return;
  [s, browser] = await Promise.all([startWebServer(dir), launchBrowser()]);
});
after(() => Promise.all([s?.server.close(), browser?.close()]));

/** The messages the server's cache holds for a topic, as a subscriber polling it gets them. */
async function cached(topic: string): Promise<Json[]> {
  const text = await (await fetch(`${s.url}/${topic}/json?poll=1`)).text();
  return text.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Json);
}

async function openApp(path = ''): Promise<Page> {
  const page = await browser.newPage();
  page.on('pageerror', (err) => assert.fail(`page error: ${err.message}`));
  await page.goto(`${s.url}/${path}`);
  return page;
}

describe('web app in Chromium — subscribing and receiving', { skip: noChromium }, () => {
  it('subscribes from the sidebar and shows a message published with plain HTTP: emoji title, priority, Markdown, tags, click, actions', async () => {
    const page = await openApp();
    await page.getByLabel('Topic to subscribe to').fill('alerts');
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await page.locator('.state-live').waitFor();
    assert.equal(new URL(page.url()).pathname, '/alerts');
    const sent = await publish(`${s.url}/alerts`, 'Disk **almost** full\n\n- `/srv` 97%', {
      Title: 'Backup failed',
      Priority: '5',
      Tags: 'warning,srv1',
      Click: 'https://grafana.example.com/d/1',
      Markdown: 'yes',
      Actions: 'view, Open logs, https://logs.example.com; http, Retry, https://api.example.com/retry',
    });
    const card = page.locator(`.card[data-id="${sent.json.id}"]`);
    await card.waitFor();
    assert.equal(await card.locator('.card-title').innerText(), '⚠️ Backup failed');
    assert.equal(await card.locator('.priority').innerText(), 'URGENT');
    assert.equal(await card.locator('.message-markdown strong').innerText(), 'almost');
    assert.equal(await card.locator('.message-markdown code').innerText(), '/srv');
    assert.deepEqual(await card.locator('.tag').allInnerTexts(), ['srv1']);
    assert.equal(await card.locator('a.click').getAttribute('href'), 'https://grafana.example.com/d/1');
    assert.equal(await card.getByRole('link', { name: 'Open logs' }).getAttribute('href'), 'https://logs.example.com');
    assert.equal(await card.getByRole('button', { name: 'Retry' }).count(), 1);
    await page.close();
  });

  it('escapes HTML in Markdown, so a message cannot run script in the page', async () => {
    const page = await openApp('xss');
    await page.locator('.state-live').waitFor();
    const sent = await publish(`${s.url}/xss`, '<img src=x onerror="document.title=\'owned\'"> [link](javascript:alert(1))', { Markdown: 'yes' });
    const card = page.locator(`.card[data-id="${sent.json.id}"]`);
    await card.locator('.message-markdown').waitFor();
    assert.equal(await card.locator('img').count(), 0);
    assert.ok((await card.innerText()).includes('<img src=x'));
    assert.equal(await card.locator('a[href^="javascript"]').count(), 0);
    assert.notEqual(await page.title(), 'owned');
    await page.close();
  });
});

describe('web app in Chromium — browser notifications and settings', { skip: noChromium }, () => {
  it('notifies of live messages at or above the minimum priority, not of history; the list hides the ones below', async () => {
    await publish(`${s.url}/quiet`, 'from before');
    const context = await browser.newContext();
    await context.grantPermissions(['notifications']);
    const page = await context.newPage();
    await page.goto(`${s.url}/settings`);
    await page.locator('select[name=min-priority]').selectOption('3');
    await page.goto(`${s.url}/quiet`);
    await page.locator('.state-live').waitFor();
    await page.locator('.card', { hasText: 'from before' }).waitFor();
    await publish(`${s.url}/quiet`, 'too low', { Priority: '2' });
    const loud = await publish(`${s.url}/quiet`, 'disk full', { Title: 'srv1', Tags: 'warning', Priority: '4' });
    await page.locator(`.card[data-id="${loud.json.id}"]`).waitFor();
    const shown = await shownNotifications(page, 1);
    assert.deepEqual(shown.map((n) => [n.title, n.body, n.tag]), [['⚠️ srv1', 'disk full', loud.json.id]]);
    assert.deepEqual(await page.locator('.card .message-text').allInnerTexts(), ['disk full', 'from before']);
    await context.close();
  });
});

describe('web app in Chromium — publishing', { skip: noChromium }, () => {
  it('publishes from the dialog with a file, Markdown, tags, priority and an action; the server stores exactly that', async () => {
    const page = await openApp('uploads');
    await page.locator('.state-live').waitFor();
    await page.getByRole('button', { name: 'Publish' }).click();
    const dialog = page.getByRole('dialog', { name: 'Publish to uploads' });
    await dialog.locator('input[name=title]').fill('Nightly report');
    await dialog.locator('textarea[name=message]').fill('All **green** ✅');
    await dialog.locator('input[name=markdown]').check();
    await dialog.locator('input[name=tags]').fill('white_check_mark,nightly');
    await dialog.locator('select[name=priority]').selectOption('4');
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000' + '1f15c4890000000d49444154789c6360f8cfc0f01f0005000201' + 'ffa1e5b4d70000000049454e44ae426082', 'hex');
    await dialog.locator('input[name=file]').setInputFiles({ name: 'report.png', mimeType: 'image/png', buffer: png });
    await dialog.getByRole('button', { name: 'Add action' }).click();
    await dialog.getByLabel('Action label').fill('Open report');
    await dialog.getByLabel('Action URL').fill('https://reports.example.com/nightly');
    const preview = page.waitForResponse((res) => res.url().includes('/file/'));
    await dialog.getByRole('button', { name: 'Send' }).click();
    await dialog.waitFor({ state: 'detached' });

    const [stored] = await cached('uploads');
    assert.ok(stored);
    assert.deepEqual(
      [stored.title, stored.message, stored.priority, stored.tags, stored.content_type],
      ['Nightly report', 'All **green** ✅', 4, ['white_check_mark', 'nightly'], 'text/markdown'],
    );
    const attachment = stored.attachment as Json;
    assert.deepEqual([attachment.name, attachment.type, attachment.size], ['report.png', 'image/png', png.length]);
    assert.deepEqual(
      (stored.actions as Json[]).map((a) => [a.action, a.label, a.url]),
      [['view', 'Open report', 'https://reports.example.com/nightly']],
    );
    // The subscribed page shows it with the image previewed from the server.
    const card = page.locator(`.card[data-id="${stored.id}"]`);
    await card.locator('img.attachment-preview').waitFor();
    assert.equal(await card.locator('.card-title').innerText(), '✅ Nightly report');
    const image = await preview;
    assert.deepEqual([image.url(), image.status(), await image.body()], [attachment.url, 200, png]);
    assert.equal(await card.locator('a.attachment-download').getAttribute('href'), attachment.url);
    await page.close();
  });
});

describe('web app in Chromium — accounts', { skip: noChromium }, () => {
  it('signs up, and keeps the session and the subscriptions (synced to the account) across a reload', async () => {
    const page = await openApp('signup');
    await page.locator('input[name=username]').fill('phil');
    await page.locator('input[name=password]').fill('s3cret-pass');
    await page.locator('input[name=confirm]').fill('s3cret-pass');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByRole('heading', { name: 'phil (user)' }).waitFor();
    await page.getByLabel('Topic to subscribe to').fill('phil_news');
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await page.locator('.state-live').waitFor();
    await page.reload();
    await page.getByRole('link', { name: 'phil', exact: true }).waitFor();
    await page.locator('.state-live').waitFor();
    assert.deepEqual(await page.locator('.topics .topic-name').allInnerTexts(), ['phil_news']);
    const account = await (await fetch(`${s.url}/v1/account`, { headers: { Authorization: `Basic ${Buffer.from('phil:s3cret-pass').toString('base64')}` } })).json();
    assert.deepEqual((account as Json).subscriptions, [{ base_url: s.url, topic: 'phil_news', display_name: null }]);
    await page.close();
  });

  /** The account page, logged in as the admin through the login form. */
  async function adminAccountPage(): Promise<Page> {
    const page = await openApp('login');
    await page.locator('input[name=username]').fill('admin');
    await page.locator('input[name=password]').fill(adminPassword);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: 'admin (admin)' }).waitFor();
    return page;
  }

  it('logs in, creates a token and reserves a topic through the account page', async () => {
    const page = await adminAccountPage();
    const tokens = page.getByRole('region', { name: 'Access tokens' });
    await tokens.getByLabel('Token label').fill('backup script');
    await tokens.getByRole('button', { name: 'Create token' }).click();
    await tokens.getByText('backup script').waitFor();
    const created = await tokens.locator('tr', { hasText: 'backup script' }).locator('code.token').innerText();
    assert.match(created, /^tk_[A-Za-z0-9]{29}$/);
    const me = await (await fetch(`${s.url}/v1/account`, { headers: { Authorization: `Bearer ${created}` } })).json();
    assert.equal((me as Json).username, 'admin');

    const reservations = page.getByRole('region', { name: 'Reserved topics' });
    await reservations.getByLabel('Topic to reserve').fill('ops');
    await reservations.getByLabel('Access for everyone else').selectOption('read-only');
    await reservations.getByRole('button', { name: 'Reserve' }).click();
    await reservations.getByText('Reserved ops').waitFor();
    assert.equal((await publish(`${s.url}/ops`, 'from nobody')).status, 403, 'everyone else may only read the reserved topic');
    assert.equal((await publish(`${s.url}/ops`, 'from admin', { Authorization: `Bearer ${created}` })).status, 200);
    await page.close();
  });

  it('creates a topic-scoped token on the account page: listed with its scopes, it publishes only there; a bad word shows the error', async () => {
    const page = await adminAccountPage();
    const tokens = page.getByRole('region', { name: 'Access tokens' });
    await tokens.getByLabel('Token label').fill('bad scope');
    await tokens.getByLabel('Token scopes').fill('deploys:sometimes');
    await tokens.getByRole('button', { name: 'Create token' }).click();
    await tokens.getByText('incorrect permission string').waitFor();
    await tokens.getByLabel('Token label').fill('deploy job');
    await tokens.getByLabel('Token scopes').fill('deploys:wo, logs-*:ro');
    await tokens.getByRole('button', { name: 'Create token' }).click();
    const row = tokens.locator('tr', { hasText: 'deploy job' });
    await row.getByText('deploys (write-only), logs-* (read-only)').waitFor();
    const created = await row.locator('code.token').innerText();
    assert.equal((await publish(`${s.url}/deploys`, 'v2 out', { Authorization: `Bearer ${created}` })).status, 200);
    assert.equal((await publish(`${s.url}/elsewhere`, 'no', { Authorization: `Bearer ${created}` })).status, 403, 'an admin token scoped to deploys');
    assert.equal(await tokens.locator('tr', { hasText: 'bad scope' }).count(), 0);
    await page.close();
  });

  it('changes the password, then deletes the account', async () => {
    const basic = (password: string): Record<string, string> => ({ Authorization: `Basic ${Buffer.from(`carol:${password}`).toString('base64')}` });
    assert.equal((await fetch(`${s.url}/v1/account`, { method: 'POST', body: JSON.stringify({ username: 'carol', password: 'first-pass' }) })).status, 200);
    const page = await openApp('login');
    page.on('dialog', (dialog) => void dialog.accept());
    await page.locator('input[name=username]').fill('carol');
    await page.locator('input[name=password]').fill('first-pass');
    await page.getByRole('button', { name: 'Log in' }).click();
    const password = page.getByRole('form', { name: 'Change password' });
    await password.getByLabel('Current password').fill('first-pass');
    await password.getByLabel('New password').fill('second-pass');
    await password.getByRole('button', { name: 'Change password' }).click();
    await password.getByText('Password changed').waitFor();
    assert.deepEqual([(await fetch(`${s.url}/v1/account`, { headers: basic('first-pass') })).status, (await fetch(`${s.url}/v1/account`, { headers: basic('second-pass') })).status], [401, 200]);

    const remove = page.getByRole('form', { name: 'Delete account' });
    await remove.getByLabel('Password to confirm').fill('second-pass');
    await remove.getByRole('button', { name: 'Delete account' }).click();
    await page.waitForURL(`${s.url}/`);
    assert.equal((await fetch(`${s.url}/v1/account`, { headers: basic('second-pass') })).status, 401);
    await page.getByRole('link', { name: 'Log in' }).waitFor();
    await page.close();
  });
});
