import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { freshContext, launchBrowser, noChromium, openTopic } from '../support/browser.js';
import { publish } from '../support/clients.js';
import { tempDir, type TestServer } from '../support/server.js';
import { startWebServer } from '../support/web-server.js';

/**
 * Issue 37, item 2, in the web app: a topic page that comes back after the server dropped
 * what it missed says "some notifications could not be recovered", until dismissed.
 */

const dir = tempDir();
let s: TestServer;
let browser: Browser;
before(async () => {
  if (noChromium) return;
  [s, browser] = await Promise.all([startWebServer(dir, { 'manager-interval': '1s', 'topic-retention': [{ topic: 'gap-web', 'max-messages': 1 }] }), launchBrowser()]);
});
after(() => Promise.all([s?.server.close(), browser?.close()]));

describe('web app in Chromium — replay gaps', { skip: noChromium }, () => {
  it('shows the note when the messages missed while away were dropped, then the one kept; Dismiss removes it', async () => {
    const context = await freshContext(browser);
    const first = await openTopic(context, s.url, 'gap-web');
    const seen = await publish(`${s.url}/gap-web`, 'seen');
    await first.locator(`.card[data-id="${seen.json.id}"]`).waitFor();
    assert.equal(await first.locator('.gap-note').count(), 0, 'a complete replay shows no note');
    // Unloaded before closed: close() resolves while the page can still take a message in.
    await first.goto('about:blank');
    await first.close();

    // Away: two more, of which the housekeeping keeps the newest (max-messages 1).
    await publish(`${s.url}/gap-web`, 'missed');
    const kept = await publish(`${s.url}/gap-web`, 'kept');
    // Until a trim left only 'kept': a run between the two publishes trims 'seen' alone.
    const cached = async (): Promise<unknown[]> => (await (await fetch(`${s.url}/gap-web/json?poll=1&since=all`)).text()).split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { id: unknown }).id);
    for (const deadline = Date.now() + 10_000; JSON.stringify(await cached()) !== JSON.stringify([kept.json.id]); ) {
      assert.ok(Date.now() < deadline, `still cached: ${JSON.stringify(await cached())}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    const back = await openTopic(context, s.url, 'gap-web');
    await back.locator(`.card[data-id="${kept.json.id}"]`).waitFor();
    const note = back.getByRole('status').filter({ hasText: 'Some notifications could not be recovered' });
    await note.waitFor();
    assert.deepEqual(await back.locator('.card').evaluateAll((cards) => cards.map((c) => c.getAttribute('data-id'))), [kept.json.id, seen.json.id], 'the one kept, newest first, and the one seen before');
    await note.getByRole('button', { name: 'Dismiss' }).click();
    await note.waitFor({ state: 'detached' });
    await context.close();
  });
});
