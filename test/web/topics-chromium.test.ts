import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { freshContext, launchBrowser, logInAs, noChromium, openTopic as openTopicAt, shownNotifications } from '../support/browser.js';
import { publish } from '../support/clients.js';
import { tempDir, type TestServer } from '../support/server.js';
import { adminPassword, startWebServer } from '../support/web-server.js';

/** Protected and rate-limited topics, read state and the message tools in the web app (issue 40, items 3 and 4), in Chromium against real servers. */

let guarded: TestServer;
let open: TestServer;
let limited: TestServer;
let browser: Browser;
const dir = tempDir();
const limitedDir = tempDir();
const openDir = tempDir();
const basicAdmin = { Authorization: `Basic ${Buffer.from(`admin:${adminPassword}`).toString('base64')}` };

before(async () => {
  if (noChromium) return;
  [guarded, limited, open, browser] = await Promise.all([
    startWebServer(dir, { 'auth-default-access': 'deny-all' }),
    // Three requests, then one more an hour: the page's first poll is refused.
    startWebServer(limitedDir, { 'visitor-request-limit-burst': 3, 'visitor-request-limit-replenish': '1h' }),
    // The history test publishes more than a visitor's burst.
    startWebServer(openDir, { 'visitor-request-limit-exempt-hosts': ['127.0.0.1'] }),
    launchBrowser(),
  ]);
});
after(() => Promise.all([guarded?.server.close(), limited?.server.close(), open?.server.close(), browser?.close()]));

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

/** The sidebar's unread badge of `topic` ('' without one) and the tab's title. */
async function unreadShown(page: Page, topic: string): Promise<[string, string]> {
  const badge = page.locator('.topics a', { hasText: topic }).locator('.unread-badge');
  return [(await badge.count()) ? await badge.innerText() : '', await page.title()];
}

describe('read state and the message tools in Chromium (issue 40, item 4)', { skip: noChromium }, () => {
  it('counts unread messages in the sidebar and the tab title, and marking one read reaches another device through message_clear', async () => {
    const [laptop, phone] = await Promise.all([freshContext(browser), freshContext(browser)]);
    const pages = await Promise.all([laptop, phone].map((context) => openTopicAt(context, open.url, 'reads')));
    for (const page of pages) await page.getByRole('link', { name: 'All notifications' }).click();
    const first = await publish(`${open.url}/reads`, 'first');
    await publish(`${open.url}/reads`, 'second');
    for (const page of pages) {
      await page.locator('.card.unread').nth(1).waitFor();
      assert.deepEqual(await unreadShown(page, 'reads'), ['2', '(2) Tocsin']);
    }
    const [here, there] = pages as [Page, Page];
    await here.locator(`.card[data-id="${first.json.id}"]`).getByRole('button', { name: 'Mark read' }).click();
    assert.deepEqual(await unreadShown(here, 'reads'), ['1', '(1) Tocsin']);
    // The server keeps the read as a message_clear event for the message, which the other device acts on.
    await there.locator(`.card[data-id="${first.json.id}"]:not(.unread)`).waitFor();
    assert.deepEqual(await unreadShown(there, 'reads'), ['1', '(1) Tocsin']);
    const events = (await (await fetch(`${open.url}/reads/json?poll=1`)).text()).trim().split('\n').map((line) => JSON.parse(line) as { event: string; sequence_id?: string });
    assert.deepEqual(events.filter((e) => e.event === 'message_clear').map((e) => e.sequence_id), [first.json.id]);
    // Opening the topic's page reads the rest; what arrives while it is on screen is read already.
    await here.locator('.topics a', { hasText: 'reads' }).click();
    await here.waitForFunction('document.title === "Tocsin"');
    await publish(`${open.url}/reads`, 'third');
    await here.locator('.message-text', { hasText: 'third' }).waitFor();
    assert.deepEqual(await unreadShown(here, 'reads'), ['', 'Tocsin']);
    assert.equal(await here.locator('.card.unread').count(), 0);
    await Promise.all([laptop.close(), phone.close()]);
  });

  it('copies and deletes a message, and links the http(s) and mailto URLs of plain text only', async () => {
    const context = await freshContext(browser, { permissions: ['clipboard-read', 'clipboard-write'] });
    const page = await openTopicAt(context, open.url, 'tools');
    const sent = await publish(`${open.url}/tools`, 'Docs at https://example.com/a?b=1. Mail mailto:ops@example.com, not javascript:alert(1) or data:text/html,x', { Title: 'Links' });
    const card = page.locator(`.card[data-id="${sent.json.id}"]`);
    await card.waitFor();
    const links = card.locator('.message-text a');
    assert.deepEqual(await links.evaluateAll((as) => as.map((a) => a.getAttribute('href'))), ['https://example.com/a?b=1', 'mailto:ops@example.com']);
    assert.equal(await card.locator('.message-text').innerText(), 'Docs at https://example.com/a?b=1. Mail mailto:ops@example.com, not javascript:alert(1) or data:text/html,x');
    await card.getByRole('button', { name: 'Copy' }).click();
    await page.getByRole('status').filter({ hasText: 'Notification copied to the clipboard' }).waitFor();
    assert.equal(await page.evaluate('navigator.clipboard.readText()'), 'Links\nDocs at https://example.com/a?b=1. Mail mailto:ops@example.com, not javascript:alert(1) or data:text/html,x');
    await card.getByRole('button', { name: 'Delete' }).click();
    assert.equal(await card.count(), 0);
    // Deleted in this browser for good: a reload does not fetch it again.
    await page.reload();
    await page.locator('.state-live').waitFor();
    assert.equal(await page.locator('.card').count(), 0);
    await context.close();
  });

  it('sends a test notification to the topic, and says why when the server refuses it', async () => {
    const context = await freshContext(browser);
    const page = await openTopicAt(context, open.url, 'trial');
    await page.getByRole('button', { name: 'Send test notification' }).click();
    const card = page.locator('.card', { hasText: 'Test notification' });
    await card.waitFor();
    assert.match(await card.locator('.message-text').innerText(), /^This is a test notification from Tocsin's web app, sent at .+\.$/);
    const stored = (await (await fetch(`${open.url}/trial/json?poll=1`)).json()) as { title: string; tags: string[] };
    assert.deepEqual([stored.title, stored.tags], ['Test notification', ['tada']]);
    // A visitor may not publish to a deny-all server's topic: the page says so.
    const denied = await context.newPage();
    await denied.goto(`${guarded.url}/closed`);
    await denied.getByRole('button', { name: 'Send test notification' }).click();
    await denied.getByText(/^The test notification was not sent: .+/).waitFor();
    await context.close();
  });

  it('bounds the history kept in the browser by the size setting, dropping the oldest, instead of a count per topic', async () => {
    const context = await freshContext(browser);
    const page = await context.newPage();
    await page.goto(`${open.url}/settings`);
    await page.locator('select[name=history-size]').selectOption('500000');
    await page.goto(`${open.url}/big`);
    await page.locator('.state-live').waitFor();
    const ids: string[] = [];
    for (let i = 0; i < 160; i++) ids.push((await publish(`${open.url}/big`, `${i} ${'x'.repeat(3500)}`)).json.id as string);
    await page.locator(`.card[data-id="${ids[159]}"]`).waitFor();
    const stored = (await page.evaluate('localStorage.getItem("tocsin.subscriptions")')) as string;
    const kept = (JSON.parse(stored) as { messages: { id: string }[] }[])[0]?.messages.map((m) => m.id) ?? [];
    // About 3,600 characters a message: some 138 fit in 500,000, the newest of them.
    assert.ok(stored.length <= 500_000 + 1000, `${stored.length} characters stored`);
    assert.ok(kept.length > 120 && kept.length < 150, `${kept.length} kept`);
    assert.deepEqual(kept, ids.slice(-kept.length));
    assert.equal(await page.locator('.card').count(), kept.length);
    await context.close();
  });

  it('takes in a history far past the size setting (50,000 messages, 7 MB) at once, keeping the newest that fit', async () => {
    const context = await freshContext(browser);
    const page = await context.newPage();
    // Another server's answer (ntfy keeps 12 hours of a busy topic): a route, as no server here holds that much.
    const time = Math.floor(Date.now() / 1000);
    const line = (i: number): string => `${JSON.stringify({ id: `m${String(i).padStart(11, '0')}`, time, event: 'message', topic: 'flood', message: `${i} ${'y'.repeat(100)}` })}\n`;
    const body = Array.from({ length: 50_000 }, (_, i) => line(i)).join('');
    await page.route((url) => url.pathname === '/flood/json', (route) => route.fulfill({ status: 200, contentType: 'application/x-ndjson', body }));
    const started = Date.now();
    await page.goto(`${open.url}/flood`);
    await page.locator('.card[data-id="m00000049999"]').waitFor({ timeout: 30_000 });
    const took = Date.now() - started;
    const stored = (await page.evaluate('localStorage.getItem("tocsin.subscriptions")')) as string;
    const kept = (JSON.parse(stored) as { messages: { id: string }[] }[])[0]?.messages.map((m) => m.id) ?? [];
    // About 170 characters a message: some 5,800 fit in the default 1,000,000, the newest of them.
    assert.ok(kept.length > 5000 && kept.length < 6500, `${kept.length} kept`);
    assert.equal(kept.at(-1), 'm00000049999');
    assert.equal(kept[0], `m${String(50_000 - kept.length).padStart(11, '0')}`);
    // One update for the whole history (under 3 s here): one message at a time, each a write of
    // localStorage and a bound of the history, had shown nothing after 20 s.
    assert.ok(took < 15_000, `${took} ms to show the newest`);
    await context.close();
  });

  it('names a topic (kept in the account as display_name) and mutes it: messages still listed, no browser notification', async () => {
    const context = await freshContext(browser, { permissions: ['notifications'] });
    const page = await logInAs(context, open.url, 'admin', adminPassword);
    await page.goto(`${open.url}/named`);
    await page.locator('.state-live').waitFor();
    await page.getByText('Topic settings').click();
    await page.getByLabel('Display name').fill('Build alerts');
    await page.getByRole('button', { name: 'Save name' }).click();
    await page.getByRole('heading', { name: 'Build alerts' }).waitFor();
    assert.deepEqual(await page.locator('.topics .topic-name').allInnerTexts(), ['Build alerts']);
    const account = (await (await fetch(`${open.url}/v1/account`, { headers: basicAdmin })).json()) as { subscriptions: { topic: string; display_name: string | null }[] };
    assert.deepEqual(account.subscriptions.map((sub) => [sub.topic, sub.display_name]), [['named', 'Build alerts']]);

    const heard = await publish(`${open.url}/named`, 'heard');
    await page.locator(`.card[data-id="${heard.json.id}"]`).waitFor();
    assert.deepEqual((await shownNotifications(page, 1)).map((n) => n.body), ['heard']);
    await page.getByLabel('Mute: no browser notifications for this topic').check();
    const muted = await publish(`${open.url}/named`, 'not heard');
    await page.locator(`.card[data-id="${muted.json.id}"]`).waitFor();
    await page.waitForTimeout(500);
    assert.deepEqual((await shownNotifications(page, 1)).map((n) => n.body), ['heard']);
    await context.close();
  });
});
