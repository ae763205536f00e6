import type { Browser } from 'playwright-core';
import { publish } from './clients.js';

/**
 * A few messages of the kinds the web app shows, to `<baseUrl>/ops`: a plain one, a Markdown
 * one with a click URL and action buttons, and an image attachment rendered by Chromium
 * itself (the server needs attachments on, as startWebServer's).
 */
export async function publishSamples(browser: Browser, baseUrl: string): Promise<void> {
  const painter = await browser.newPage({ viewport: { width: 480, height: 200 } });
  await painter.setContent(`<body style="margin:0;background:linear-gradient(120deg,#2f7d6d,#5cc2ab);font:600 28px system-ui;color:#fff;display:grid;place-items:center;height:200px">CPU 97 % on srv1</body>`);
  const chart = await painter.screenshot();
  await painter.close();
  const topic = `${baseUrl}/ops`;
  await publish(topic, 'Nightly backup finished in 42 min.', { Title: 'Backup done', Tags: 'white_check_mark,srv1', Priority: '2' });
  await publish(topic, 'The nightly backup stopped after **2 h 14 min**:\n\n- `/srv/db` copied\n- `/srv/media` *not copied* (disk full)', {
    Title: 'Backup of srv1 failed',
    Tags: 'warning,floppy_disk,srv1',
    Priority: '4',
    Markdown: 'yes',
    Click: 'https://grafana.example.com/d/backups',
    Actions: 'view, Open logs, https://logs.example.com/srv1; http, Retry, https://api.example.com/retry',
  });
  await publish(`${topic}?filename=cpu.png&title=${encodeURIComponent('CPU alert')}&tags=rotating_light&priority=5`, chart, {}, 'PUT');
}

/** Publishes to `topics` of `baseUrl` in turn, `perSecond` messages a second, with plain HTTP, until stopped. */
export function steadyLoad(baseUrl: string, topics: string[], perSecond: number): { stop(): void; sent: () => number } {
  let sent = 0;
  const timer = setInterval(() => {
    const topic = topics[sent % topics.length] as string;
    sent++;
    void publish(`${baseUrl}/${topic}`, `load ${sent}`, { Title: 'Load', Tags: 'chart_with_upwards_trend' });
  }, 1000 / perSecond);
  return { stop: () => clearInterval(timer), sent: () => sent };
}
