import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchBrowser, noChromium, waitInPage } from '../support/browser.js';
import { publish } from '../support/clients.js';
import { startTestServer, tempDir } from '../support/server.js';
import { interruptLiveStreams } from '../../src/transports/subscribe/lost-range.js';

/**
 * Issue 37, item 1, in a browser: Chromium's own EventSource, cut off by the server,
 * reconnects with the Last-Event-ID it kept and catches up on
 * what was published meanwhile, nothing missed and nothing repeated.
 */

let browser: Browser;
before(async () => {
  if (noChromium) return;
  browser = await launchBrowser();
});
after(() => browser?.close());

describe('SSE resume in Chromium — EventSource across a server restart', { skip: noChromium }, () => {
  it('catches up on the messages published while it was cut off, each once', async () => {
    const s = await startTestServer({ 'cache-file': join(tempDir(), 'cache.db') });
    const page = await browser.newPage();
    try {
      await page.goto(`${s.url}/v1/health`);
      await page.evaluate(`window.got = [];
        window.source = new EventSource('/resume-browser/sse');
        source.onmessage = (e) => window.got.push({ id: e.lastEventId, message: JSON.parse(e.data).message });`);
      await waitInPage(page, 'window.source.readyState === EventSource.OPEN');
      const first = await publish(`${s.url}/resume-browser`, 'before');
      await waitInPage(page, 'window.got.length === 1');

      // The server ends the stream (as it does when its live feed lost a range, lost-range.ts).
      assert.equal(interruptLiveStreams(s.server.context, { from: 1, to: 1, covers: (topic) => topic === 'resume-browser' }), 1);
      // Published before the browser is back (it retries after about 3 s).
      const missed = [await publish(`${s.url}/resume-browser`, 'while away 1'), await publish(`${s.url}/resume-browser`, 'while away 2')];
      await waitInPage(page, 'window.got.length === 3');
      const later = await publish(`${s.url}/resume-browser`, 'after');
      await waitInPage(page, 'window.got.length >= 4');

      assert.deepEqual(await page.evaluate('window.got'), [
        { id: first.json.id, message: 'before' },
        { id: missed[0]?.json.id, message: 'while away 1' },
        { id: missed[1]?.json.id, message: 'while away 2' },
        { id: later.json.id, message: 'after' },
      ]);
    } finally {
      await page.close();
      await s.server.close();
    }
  });
});
