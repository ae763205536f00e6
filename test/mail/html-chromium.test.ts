import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import { HtmlPart } from '../../src/mail/outbound/html-part.js';
import type { Message } from '../../src/model/message.js';

/**
 * The HTML mail as a mail client's engine lays it out: Chromium (Debian's `chromium`, which
 * .ci/run installs), driven by playwright-core. `MAIL_SCREENSHOT=docs/email.png` also
 * saves the desktop rendering (the picture in docs/email-and-calls.md).
 */

const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const sample: Message = {
  id: 'sample000001',
  time: 1_795_000_000,
  event: 'message',
  topic: 'backups',
  title: 'Backup of srv1 failed',
  message: 'The nightly backup stopped after **2 h 14 min**:\n\n- `/srv/db` copied\n- `/srv/media` *not copied* (disk full)\n\nSee the [runbook](https://wiki.example.com/backup).',
  content_type: 'text/markdown',
  priority: 4,
  tags: ['warning', 'floppy_disk', 'srv1'],
  click: 'https://grafana.example.com/d/backups',
  actions: [
    { id: 'a1', action: 'view', label: 'Open logs', url: 'https://logs.example.com/srv1', clear: false },
    { id: 'a2', action: 'http', label: 'Retry', url: 'https://api.example.com/retry', clear: false },
  ],
  attachment: { name: 'backup.log', type: 'text/plain', size: 48_213, url: 'https://ntfy.example.com/file/abc.log' },
};
const origin = { topicUrl: 'https://ntfy.example.com/backups', senderIp: '203.0.113.7' };

let browser: Browser;
before(async () => {
  assert.ok(existsSync(executablePath), `Chromium is needed at ${executablePath} (apt-get install chromium, as .ci/run does)`);
  browser = await chromium.launch({ executablePath, args: ['--no-sandbox'] });
});
after(() => browser?.close());

describe('mail out — the HTML part in Chromium', () => {
  it('shows the title, the rendered Markdown, tags, priority, buttons and the attachment; the http action is left out', async () => {
    const html = (await HtmlPart.compile()).render(sample, origin);
    const page = await browser.newPage({ viewport: { width: 680, height: 400 } });
    await page.setContent(html);
    assert.equal(await page.title(), '⚠️ 💾 Backup of srv1 failed');
    const text = await page.locator('body').innerText();
    for (const seen of ['ntfy.example.com/backups', 'PRIORITY: HIGH', '⚠️ 💾 Backup of srv1 failed', 'The nightly backup stopped after 2 h 14 min:', '/srv/media not copied (disk full)', 'srv1', 'backup.log (47.1 KB)', 'Open link', 'Open logs', 'This message was sent by 203.0.113.7']) {
      assert.ok(text.includes(seen), `${seen} in ${text}`);
    }
    assert.ok(!text.includes('Retry'));
    const links = await Promise.all((await page.locator('a').all()).map(async (a) => [(await a.textContent())?.trim(), await a.getAttribute('href')]));
    assert.deepEqual(links, [
      ['runbook', 'https://wiki.example.com/backup'],
      ['backup.log', 'https://ntfy.example.com/file/abc.log'],
      ['Open link', 'https://grafana.example.com/d/backups'],
      ['Open logs', 'https://logs.example.com/srv1'],
      ['https://ntfy.example.com/backups', 'https://ntfy.example.com/backups'],
    ]);
    assert.equal(await page.locator('strong').textContent(), '2 h 14 min');
    if (process.env.MAIL_SCREENSHOT) await page.screenshot({ path: process.env.MAIL_SCREENSHOT, fullPage: true });
  });

  it('fits a phone\'s width: nothing wider than 375 px', async () => {
    const html = (await HtmlPart.compile()).render(sample, origin);
    const page = await browser.newPage({ viewport: { width: 375, height: 800 } });
    await page.setContent(html);
    assert.ok((await page.evaluate<number>('document.documentElement.scrollWidth')) <= 375);
  });
});
