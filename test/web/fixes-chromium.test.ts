import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { freshContext, launchBrowser, logInAs, noChromium, openTopic as openTopicAt } from '../support/browser.js';
import { publish } from '../support/clients.js';
import { tempDir, type TestServer } from '../support/server.js';
import { adminPassword, startWebServer } from '../support/web-server.js';

/** The web app's bugs of issue 40 (B1–B9), each as a user meets it in Chromium against a real Tocsin. */

let s: TestServer;
let browser: Browser;
const dir = tempDir();
before(async () => {
  if (noChromium) return;
  [s, browser] = await Promise.all([startWebServer(dir), launchBrowser()]);
});
after(() => Promise.all([s?.server.close(), browser?.close()]));

const openTopic = (context: BrowserContext, topic: string): Promise<Page> => openTopicAt(context, s.url, topic);

/** A user without a tier, signed up through the API. */
async function signUp(username: string, password: string): Promise<void> {
  assert.equal((await fetch(`${s.url}/v1/account`, { method: 'POST', body: JSON.stringify({ username, password }) })).status, 200);
}

describe('web app bugs in Chromium (issue 40)', { skip: noChromium }, () => {
  it('B1: emoji tags of a message without a title go before the text once, with no heading', async () => {
    const context = await freshContext(browser);
    const page = await openTopic(context, 'b1');
    const sent = await publish(`${s.url}/b1`, 'Release shipped', { Tags: 'tada,prod' });
    const card = page.locator(`.card[data-id="${sent.json.id}"]`);
    await card.waitFor();
    assert.equal(await card.locator('.card-title').count(), 0);
    assert.equal(await card.locator('.message-text').innerText(), '🎉 Release shipped');
    assert.deepEqual(await card.locator('.tag').allInnerTexts(), ['prod']);
    await context.close();
  });

  it('B2: a subscription made in one tab survives Clear pressed in another tab opened before it', async () => {
    const context = await freshContext(browser);
    const first = await openTopic(context, 'b2_old');
    const second = await openTopic(context, 'b2_old');
    await publish(`${s.url}/b2_old`, 'to be cleared');
    await second.locator('.card').waitFor();
    await first.getByLabel('Topic to subscribe to').fill('b2_new');
    await first.getByRole('button', { name: 'Subscribe', exact: true }).click();
    await first.locator('.state-live').waitFor();
    await second.getByRole('button', { name: 'Clear' }).click();
    // The second tab took the first's subscription, and a fresh load shows both topics.
    await second.locator('.topics .topic-name', { hasText: 'b2_new' }).waitFor();
    await first.goto(`${s.url}/`);
    assert.deepEqual(await first.locator('.topics .topic-name').allInnerTexts(), ['b2_old', 'b2_new']);
    assert.equal(await first.locator('.card').count(), 0, 'the clear reached the other tab too');
    await context.close();
  });

  it('B4: logging out removes the topics and messages from the page and from browser storage', async () => {
    const context = await freshContext(browser);
    const page = await logInAs(context, s.url, 'admin', adminPassword);
    await page.goto(`${s.url}/b4`);
    await page.locator('.state-live').waitFor();
    await publish(`${s.url}/b4`, 'secret launch codes');
    await page.locator('.message-text', { hasText: 'secret launch codes' }).waitFor();
    await page.getByRole('link', { name: 'admin', exact: true }).click();
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('link', { name: 'Log in' }).waitFor();
    assert.equal(await page.locator('.topics li').count(), 0);
    assert.equal(await page.getByText('secret launch codes').count(), 0, 'neither a card nor the live region keeps it');
    const stored = (await page.evaluate('JSON.stringify(localStorage)')) as string;
    assert.ok(!stored.includes('secret launch codes'), stored);
    assert.equal(await page.evaluate('localStorage.getItem("tocsin.subscriptions")'), '[]');
    await context.close();
  });

  it('B5: with a minimum priority set, the sidebar counts what the list shows, and the list says how many it hides', async () => {
    const context = await freshContext(browser);
    const page = await context.newPage();
    await page.goto(`${s.url}/settings`);
    await page.locator('select[name=min-priority]').selectOption('4');
    await page.goto(`${s.url}/b5`);
    await page.locator('.state-live').waitFor();
    await publish(`${s.url}/b5`, 'low one', { Priority: '2' });
    const urgent = await publish(`${s.url}/b5`, 'urgent one', { Priority: '5' });
    await page.locator(`.card[data-id="${urgent.json.id}"]`).waitFor();
    await page.locator('.hidden-note').waitFor();
    assert.equal(await page.locator('.topics a', { hasText: 'b5' }).locator('.count').innerText(), '1');
    assert.equal(await page.locator('.card').count(), 1);
    assert.equal(await page.locator('.hidden-note').innerText(), '1 below priority 4 hidden by your settings.');
    assert.equal(await page.locator('.hidden-note a').getAttribute('href'), '/settings');
    await context.close();
  });

  it('B6: a user without a tier is told reservations need a plan, with no "Up to 0" and no form that fails', async () => {
    await signUp('b6_user', 'b6-pass-word');
    const context = await freshContext(browser);
    const page = await logInAs(context, s.url, 'b6_user', 'b6-pass-word');
    const reservations = page.getByRole('region', { name: 'Reserved topics' });
    await reservations.getByText("Reserving topics needs a plan with reservations; the server's admin can give you one.").waitFor();
    assert.equal(await reservations.getByText('Up to').count(), 0);
    assert.equal(await reservations.getByRole('form', { name: 'Reserve topic' }).count(), 0);
    await context.close();
  });

  it('B7: a new token is copied to the clipboard and the page says so', async () => {
    await signUp('b7_user', 'b7-pass-word');
    const context = await freshContext(browser);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: s.url });
    const page = await logInAs(context, s.url, 'b7_user', 'b7-pass-word');
    const tokens = page.getByRole('region', { name: 'Access tokens' });
    await tokens.getByLabel('Token label').fill('cron');
    await tokens.getByRole('button', { name: 'Create token' }).click();
    const note = tokens.locator('.note');
    await note.waitFor();
    const token = /^Token (tk_[A-Za-z0-9]{29}) created and copied to the clipboard$/.exec(await note.innerText())?.[1];
    assert.ok(token, await note.innerText());
    assert.equal(await page.evaluate('navigator.clipboard.readText()'), token);
    assert.equal(await tokens.locator('tr', { hasText: 'cron' }).locator('code.token').innerText(), token);
    await context.close();
  });

  it('B8: a wrong current password is called that, not a failed confirmation', async () => {
    await signUp('b8_user', 'b8-pass-word');
    const context = await freshContext(browser);
    const page = await logInAs(context, s.url, 'b8_user', 'b8-pass-word');
    const form = page.getByRole('form', { name: 'Change password' });
    await form.getByLabel('Current password').fill('not-my-password');
    await form.getByLabel('New password').fill('b8-new-pass');
    await form.getByRole('button', { name: 'Change password' }).click();
    assert.equal(await form.locator('.error').innerText(), 'The current password is wrong');
    await context.close();
  });

  it('B9: a failed http action says why beside its button', async () => {
    const context = await freshContext(browser);
    const page = await openTopic(context, 'b9');
    const sent = await publish(`${s.url}/b9`, 'Deploy ready', { Actions: `http, Approve, ${s.url}/v1/account/password` });
    const card = page.locator(`.card[data-id="${sent.json.id}"]`);
    await card.getByRole('button', { name: 'Approve' }).click();
    const alert = card.getByRole('alert');
    await alert.waitFor();
    assert.equal(await alert.innerText(), 'Approve failed: HTTP 401 Unauthorized');
    assert.equal(await card.locator('.actions').getByRole('button').innerText(), 'Approve ❌');
    await context.close();
  });
});
