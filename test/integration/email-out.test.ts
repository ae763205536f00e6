import assert from 'node:assert/strict';
import { createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import bcrypt from 'bcryptjs';
import type { Json } from '../support/clients.js';
import { LogCapture } from '../support/log.js';
import { Scrape } from '../support/prometheus.js';
import { SmtpSink } from '../support/smtp.js';
import { startTestServer, tempDir, type TestServer } from '../support/server.js';

/** Forwarding as e-mail (X-Email): a real server relaying to a real SMTP sink started by the test. */

const baseUrl = 'http://tocsin.test';

async function server(relay: string | undefined, settings: Record<string, unknown> = {}, log?: LogCapture): Promise<TestServer> {
  const s = await startTestServer({ 'base-url': baseUrl, ...(relay && { 'smtp-sender-addr': relay, 'smtp-sender-from': 'tocsin@example.com' }), ...settings }, log?.logger);
  after(() => s.server.close());
  return s;
}

async function post(s: TestServer, path: string, body: string, headers: Record<string, string> = {}): Promise<{ status: number; json: Json }> {
  const res = await fetch(`${s.url}${path}`, { method: 'POST', body, headers });
  return { status: res.status, json: (await res.json()) as Json };
}

/** A relay that takes connections and never says a word: the worst a relay can do. */
async function blackHole(): Promise<string> {
  const sockets = new Set<Socket>();
  const hole = createServer((socket) => sockets.add(socket));
  await new Promise<void>((resolve) => hole.listen(0, '127.0.0.1', resolve));
  after(() => {
    for (const socket of sockets) socket.destroy();
    hole.close();
  });
  const address = hole.address();
  return `127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

describe('e-mail out — the mail', () => {
  it('X-Email forwards the published message: ntfy\'s headers, a text part as ntfy\'s, and the HTML part', async () => {
    const sink = await SmtpSink.start();
    const s = await server(sink.address);
    const { status, json } = await post(s, '/alerts', 'Disk **93%** full on `/srv`', {
      'X-Email': 'phil@example.com',
      Title: 'Disk <almost> full',
      Tags: 'warning,skull,tag123,other',
      Priority: '5',
      Markdown: 'yes',
      Click: 'https://status.example.com/srv',
      Actions: 'view, Open dashboard, https://grafana.example.com/d/1; http, Restart, https://api.example.com/restart',
      Attach: 'https://example.com/files/report.pdf',
    });
    assert.equal(status, 200);
    const mail = await sink.mails.take(5000);
    assert.equal(mail.from, 'tocsin@example.com');
    assert.deepEqual(mail.to, ['phil@example.com']);
    const { parsed } = mail;
    assert.deepEqual(parsed.from?.value, [{ name: 'tocsin.test/alerts', address: 'tocsin@example.com' }]);
    assert.equal(parsed.subject, '⚠️ 💀 Disk <almost> full');
    assert.equal(parsed.date?.getTime(), (json.time as number) * 1000);
    assert.match(mail.raw, /^Content-Type: multipart\/alternative;\s+boundary=/m);
    assert.ok(mail.raw.indexOf('Content-Type: text/plain') < mail.raw.indexOf('Content-Type: text/html'), 'text first, HTML last');
    const sentAt = new Date((json.time as number) * 1000).toUTCString().replace('GMT', 'UTC');
    assert.equal(parsed.text, `Disk **93%** full on \`/srv\`\n\nTags: tag123, other\nPriority: max\n\n--\nThis message was sent by 127.0.0.1 at ${sentAt} via ${baseUrl}/alerts`);
    const html = parsed.html as string;
    assert.match(html, /<!doctype html>/i);
    assert.match(html, />⚠️ 💀 Disk &lt;almost&gt; full</, 'title escaped, emojis first');
    assert.match(html, /Disk <strong>93%<\/strong> full on <code>\/srv<\/code>/, 'Markdown rendered');
    assert.match(html, /PRIORITY: MAX/);
    assert.match(html, /<span class="chip">tag123<\/span><span class="chip">other<\/span>/);
    assert.match(html, /href="https:&#x2F;&#x2F;status.example.com&#x2F;srv"[^>]*>\s*Open link\s*</);
    assert.match(html, /href="https:&#x2F;&#x2F;grafana.example.com&#x2F;d&#x2F;1"[^>]*>\s*Open dashboard\s*</);
    assert.doesNotMatch(html, /Restart|api\.example\.com/, 'an http action needs the app');
    assert.match(html, /href="https:&#x2F;&#x2F;example.com&#x2F;files&#x2F;report.pdf"[^>]*>report.pdf</);
    assert.match(html, new RegExp(`This message was sent by 127.0.0.1 at ${sentAt} via <a href="http:&#x2F;&#x2F;tocsin.test&#x2F;alerts"`));
  });

  it('plain text is escaped, not rendered, and keeps its lines; without a title the message is the subject', async () => {
    const sink = await SmtpSink.start();
    const s = await server(sink.address);
    await post(s, '/plain', '<script>alert(1)</script>\nline two **not bold**', { Email: 'a@example.com' });
    const { parsed } = await sink.mails.take(5000);
    assert.equal(parsed.subject, '<script>alert(1)</script> line two **not bold**');
    const html = parsed.html as string;
    assert.match(html, /&lt;script&gt;alert\(1\)&lt;&#x2F;script&gt;<br>line two \*\*not bold\*\*/);
    assert.doesNotMatch(html, /<script>|PRIORITY|class="chip"|Open link/);
  });

  it('every alias and JSON\'s email field forward; the relay is logged in to with smtp-sender-user/-pass', async () => {
    const sink = await SmtpSink.start({ login: { user: 'relay', pass: 'secret' } });
    const s = await server(sink.address, { 'smtp-sender-user': 'relay', 'smtp-sender-pass': 'secret' });
    for (const [i, header] of ['X-Email', 'X-E-Mail', 'Email', 'E-Mail', 'Mail', 'e'].entries()) {
      assert.equal((await post(s, '/aliases', `via ${header}`, { [header]: `r${i}@example.com` })).status, 200);
    }
    assert.equal((await post(s, '/aliases?email=q@example.com', 'via query')).status, 200);
    assert.equal((await post(s, '/', JSON.stringify({ topic: 'aliases', message: 'via JSON', email: 'j@example.com' }))).status, 200);
    const got = new Map<string, string>();
    for (let i = 0; i < 8; i++) {
      const mail = await sink.mails.take(5000);
      assert.equal(mail.user, 'relay');
      got.set(mail.to[0] as string, mail.parsed.subject as string);
    }
    assert.deepEqual(Object.fromEntries([...got].sort()), {
      'j@example.com': 'via JSON',
      'q@example.com': 'via query',
      'r0@example.com': 'via X-Email',
      'r1@example.com': 'via X-E-Mail',
      'r2@example.com': 'via Email',
      'r3@example.com': 'via E-Mail',
      'r4@example.com': 'via Mail',
      'r5@example.com': 'via e',
    });
  });
});

describe('e-mail out — refusals', () => {
  it('without smtp-sender-addr X-Email is 40001, and /v1/config and /config.js say enable_emails false', async () => {
    const s = await server(undefined);
    const { status, json } = await post(s, '/t', 'x', { Email: 'a@example.com' });
    assert.deepEqual([status, json.code], [400, 40001]);
    assert.equal(((await (await fetch(`${s.url}/v1/config`)).json()) as Json).enable_emails, false);
  });

  it('with a relay: enable_emails true; a delay is 40003; yes from anonymous 40053, a malformed address 40050 (ntfy 2.21); nothing is published', async () => {
    const sink = await SmtpSink.start();
    const s = await server(sink.address);
    assert.equal(((await (await fetch(`${s.url}/v1/config`)).json()) as Json).enable_emails, true);
    assert.match(await (await fetch(`${s.url}/config.js`)).text(), /"enable_emails": true/);
    const codes = [];
    const cases: Record<string, string>[] = [{ Email: 'a@example.com', In: '30m' }, { Email: 'yes' }, { Email: 'Phil <a@example.com>' }, { Email: 'a@example.com, b@example.com' }, { Email: 'no-at-sign' }];
    for (const headers of cases) {
      const { status, json } = await post(s, '/refused', 'x', headers);
      codes.push([status, json.code]);
    }
    assert.deepEqual(codes, [[400, 40003], [400, 40053], [400, 40050], [400, 40050], [400, 40050]]);
    assert.equal(await (await fetch(`${s.url}/refused/json?poll=1&scheduled=1`)).text(), '');
  });

  it('the e-mail bucket: visitor-email-limit-burst mails, then 429/42902 and the message is not published', async () => {
    const sink = await SmtpSink.start();
    const s = await server(sink.address, { 'visitor-email-limit-burst': 2, 'visitor-email-limit-replenish': '1h' });
    const codes = [];
    for (let i = 0; i < 3; i++) {
      const { status, json } = await post(s, '/bucket', `m${i}`, { Email: 'a@example.com' });
      codes.push([status, json.code]);
    }
    assert.deepEqual(codes, [[200, undefined], [200, undefined], [429, 42902]]);
    assert.equal((await post(s, '/bucket', 'no mail')).status, 200, 'publishing without e-mail goes on');
    const messages = (await (await fetch(`${s.url}/bucket/json?poll=1`)).text()).trim().split('\n').map((l) => (JSON.parse(l) as Json).message);
    assert.deepEqual(messages, ['m0', 'm1', 'no mail']);
  });
});

describe('e-mail out — a user\'s e-mails', () => {
  it('GET /v1/account counts the day\'s forwarded e-mails against the limit', async () => {
    const sink = await SmtpSink.start();
    const s = await server(sink.address, { 'auth-file': join(tempDir(), 'auth.db'), 'auth-users': [`phil:${bcrypt.hashSync('pw', 4)}:user`] });
    const authorization = `Basic ${Buffer.from('phil:pw').toString('base64')}`;
    assert.equal((await post(s, '/mine', 'x', { Authorization: authorization, Email: 'phil@example.com' })).status, 200);
    await sink.mails.take(5000);
    const me = (await (await fetch(`${s.url}/v1/account`, { headers: { Authorization: authorization } })).json()) as { stats: Json; limits: Json };
    assert.deepEqual([me.stats.emails, me.stats.emails_remaining, me.limits.emails], [1, 23, 24]);
  });
});

describe('e-mail out — the relay never holds up publishing', () => {
  it('a relay that never answers: every publish is answered at once, the mails wait in the queue', async () => {
    const s = await server(await blackHole(), { 'enable-metrics': true, 'visitor-email-limit-burst': 100 });
    const started = performance.now();
    const statuses = await Promise.all(Array.from({ length: 20 }, (_, i) => post(s, '/hole', `m${i}`, { Email: 'a@example.com' }).then((r) => r.status)));
    assert.deepEqual(new Set(statuses), new Set([200]));
    assert.ok(performance.now() - started < 5_000, 'publishes never waited for the 10 s greeting timeout');
    assert.equal(s.server.context.mailer?.pending, 20);
    const metrics = await Scrape.of(`${s.url}/metrics`);
    assert.deepEqual([metrics.value('ntfy_emails_sent_success'), metrics.value('ntfy_emails_sent_failure')], [0, 0]);
  });

  it('metrics: ntfy_emails_sent_success for a mail taken, _failure for one refused for good (5xx, not retried)', async () => {
    const taking = await SmtpSink.start();
    const s = await server(taking.address, { 'enable-metrics': true });
    await post(s, '/m', 'x', { Email: 'a@example.com' });
    await taking.mails.take(5000);
    const refusing = await SmtpSink.start({ refuseAll: 550 });
    const log = new LogCapture();
    const r = await server(refusing.address, { 'enable-metrics': true }, log);
    await post(r, '/m', 'x', { Email: 'a@example.com' });
    const failure = await log.next((l) => l.msg === 'e-mail could not be sent');
    assert.deepEqual([failure.email_to, failure.topic, failure.attempts, refusing.attempts], ['a@example.com', 'm', 1, 1]);
    const [ok, failed] = [await Scrape.of(`${s.url}/metrics`), await Scrape.of(`${r.url}/metrics`)];
    assert.deepEqual([ok.value('ntfy_emails_sent_success'), failed.value('ntfy_emails_sent_failure')], [1, 1]);
  });
});
