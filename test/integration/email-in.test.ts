import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import bcrypt from 'bcryptjs';
import type { Json } from '../support/clients.js';
import { Scrape } from '../support/prometheus.js';
import { refusal, sendMail } from '../support/smtp.js';
import { startTestServer, tempDir, type TestServer } from '../support/server.js';

/** Publishing by e-mail: Tocsin's SMTP listener fed by nodemailer, the result read back over HTTP. */

const domain = 'ntfy.sh';

async function server(settings: Record<string, unknown> = {}): Promise<TestServer & { smtp: number }> {
  const s = await startTestServer({ 'smtp-server-listen': '127.0.0.1:0', 'smtp-server-domain': domain, 'smtp-server-addr-prefix': 'ntfy-', ...settings });
  after(() => s.server.close());
  return { ...s, smtp: s.server.smtpPort as number };
}

/** A raw RFC 5322 mail (LF line ends, as ntfy's tests write them) to one recipient. */
function raw(to: string, text: string): { envelope: { from: string; to: string[] }; raw: string } {
  return { envelope: { from: 'phil@example.com', to: [to] }, raw: text.replace(/^\n/, '') };
}

async function cached(s: TestServer, topic: string): Promise<Json[]> {
  const res = await fetch(`${s.url}/${topic}/json?poll=1`);
  return (await res.text()).split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Json);
}

async function only(s: TestServer, topic: string): Promise<Json> {
  const messages = await cached(s, topic);
  assert.equal(messages.length, 1, JSON.stringify(messages));
  return messages[0] as Json;
}

const ok = '250 2.0.0 OK: queued';
/** The final reply to a mail the listener took. */
const taken = async (sent: Promise<{ response: string }>): Promise<string> => (await sent).response;

describe('e-mail in — what a mail publishes', () => {
  it('text/plain: the subject is the title, the body the message; answered once published', async () => {
    const s = await server();
    const answer = await taken(sendMail(s.smtp, raw('ntfy-mytopic@ntfy.sh', `
Date: Tue, 28 Dec 2021 00:30:10 +0100
Subject: and one more
From: Phil <phil@example.com>
To: ntfy-mytopic@ntfy.sh
Content-Type: text/plain; charset="UTF-8"

what's up
`)));
    assert.equal(answer, ok);
    const m = await only(s, 'mytopic');
    assert.deepEqual([m.event, m.topic, m.title, m.message], ['message', 'mytopic', 'and one more', "what's up"]);
  });

  it('no Content-Type is plain text; an RFC 2047 subject is decoded', async () => {
    const s = await server();
    await sendMail(s.smtp, raw('ntfy-short@ntfy.sh', `
Subject: =?UTF-8?B?VGhyZWUgc2FudGFzIPCfjoXwn46F8J+OhQ==?=

what's up
`));
    const m = await only(s, 'short');
    assert.deepEqual([m.title, m.message], ['Three santas 🎅🎅🎅', "what's up"]);
  });

  it('quoted-printable is decoded', async () => {
    const s = await server();
    await sendMail(s.smtp, raw('ntfy-qp@ntfy.sh', `
Subject: and one more
Content-Type: text/plain; charset="UTF-8"
Content-Transfer-Encoding: quoted-printable

what's
=C3=A0&=C3=A9"'(-=C3=A8_=C3=A7=C3=A0)
=3D=3D=3D=3D=3D
up
`));
    assert.equal((await only(s, 'qp')).message, `what's\nà&é"'(-è_çà)\n=====\nup`);
  });

  it('multipart/mixed with base64 parts gives its text/plain part (TrueNAS)', async () => {
    const s = await server();
    await sendMail(s.smtp, raw('ntfy-nas@ntfy.sh', `
Content-Type: multipart/mixed; boundary="===============2138658284696597373=="
MIME-Version: 1.0
Subject: TrueNAS truenas.local: TrueNAS Test Message hostname: truenas.local
From: =?utf-8?q?Robbie?= <test@mydomain.me>

This is a multi-part message in MIME format.
--===============2138658284696597373==
Content-Type: text/plain; charset="utf-8"
MIME-Version: 1.0
Content-Transfer-Encoding: base64

VGhpcyBpcyBhIHRlc3QgbWVzc2FnZSBmcm9tIFRydWVOQVMgQ09SRS4=

--===============2138658284696597373==
Content-Type: text/html; charset="utf-8"
MIME-Version: 1.0
Content-Transfer-Encoding: base64

PCFET0NUWVBFIEhUTUwgUFVCTElDICItLy9XM0MvL0RURCBIVE1MIDQuMCBUcmFuc2l0aW9uYWwv
L0VOIj4KClRoaXMgaXMgYSB0ZXN0IG1lc3NhZ2UgZnJvbSBUcnVlTkFTIENPUkUuCg==

--===============2138658284696597373==--
`));
    const m = await only(s, 'nas');
    assert.deepEqual([m.title, m.message], ['TrueNAS truenas.local: TrueNAS Test Message hostname: truenas.local', 'This is a test message from TrueNAS CORE.']);
  });

  it('multipart/alternative uses the text/plain part, wherever it stands, also nested', async () => {
    const s = await server();
    await sendMail(s.smtp, raw('ntfy-alt@ntfy.sh', `
MIME-Version: 1.0
Subject: nested
Content-Type: multipart/mixed; boundary="outer"

--outer
Content-Type: multipart/alternative; boundary="inner"

--inner
Content-Type: text/html; charset="UTF-8"

<p>html, ignore me</p>

--inner
Content-Type: text/plain; charset="UTF-8"
Content-Transfer-Encoding: quoted-printable

the plain=20part

--inner--

--outer--
`));
    assert.deepEqual([(await only(s, 'alt')).message], ['the plain part']);
  });

  it('an HTML-only mail becomes its text, entities decoded, links and images dropped', async () => {
    const s = await server();
    await sendMail(s.smtp, raw('ntfy-fritz@ntfy.sh', `
Subject: A HTML email
Mime-Version: 1.0
Content-Type: text/html;
	charset="utf-8"
Content-Transfer-Encoding: quoted-printable

<=21DOCTYPE html>
<html><head><title>Alerttitle</title></head>
<body style=3D"color: =23000000;">
<table><tr><td>headertext of table</td></tr></table>
<p>" Very important information about a change in your
home automation setup</p>
<p>Stop the push services in your <a href=3D"https://fritzbox">FRITZ=21Box</a>=2E<img src=3D"cid:logo"><br>
&quot;System &gt; Push Service&quot;</p>
</body></html>
`));
    assert.equal((await only(s, 'fritz')).message, 'headertext of table\n\n" Very important information about a change in your home automation setup\n\nStop the push services in your FRITZ!Box.\n"System > Push Service"');
  });

  it('a mail with a subject and no body publishes the subject as the message', async () => {
    const s = await server();
    await sendMail(s.smtp, raw('ntfy-emailtest@ntfy.sh', `
Subject: This email has a subject but no body
Content-Type: multipart/alternative; boundary="000000000000bcf4a405d429f8d4"

--000000000000bcf4a405d429f8d4
Content-Type: text/plain; charset="UTF-8"



--000000000000bcf4a405d429f8d4
Content-Type: text/html; charset="UTF-8"

<div dir="ltr"><br></div>

--000000000000bcf4a405d429f8d4--
`));
    const m = await only(s, 'emailtest');
    assert.deepEqual([m.title, m.message], [undefined, 'This email has a subject but no body']);
  });

  it('a body over message-size-limit is cut to fit a message (at a character boundary)', async () => {
    const s = await server({ 'message-size-limit': '100' });
    await sendMail(s.smtp, { to: 'ntfy-long@ntfy.sh', subject: 'long', text: `${'a'.repeat(97)}éé` });
    const m = await only(s, 'long');
    assert.equal(m.message, `${'a'.repeat(97)}é`, '99 bytes: the second é would make 101');
  });

  it('a mail sent by nodemailer with text and HTML (its own MIME) publishes the text', async () => {
    const s = await server();
    const answer = await taken(sendMail(s.smtp, { to: 'ntfy-nm@ntfy.sh', subject: 'Grüße 🎉', text: 'Zeile eins\nZeile zwei ü', html: '<b>ignored</b>' }));
    assert.equal(answer, ok);
    const m = await only(s, 'nm');
    assert.deepEqual([m.title, m.message], ['Grüße 🎉', 'Zeile eins\nZeile zwei ü']);
  });
});

describe('e-mail in — refusals, as ntfy answers them', () => {
  it('recipients: another domain, no prefix, an invalid topic are 451 at RCPT TO; nothing is published', async () => {
    const s = await server();
    assert.equal(await refusal(sendMail(s.smtp, { to: 'ntfy-mytopic@example.com', text: 'x' })), '451 4.0.0 invalid domain');
    assert.equal(await refusal(sendMail(s.smtp, { to: 'mytopic@ntfy.sh', text: 'x' })), '451 4.0.0 invalid address');
    assert.equal(await refusal(sendMail(s.smtp, { to: 'ntfy-my.topic@ntfy.sh', text: 'x' })), '451 4.0.0 invalid topic');
    assert.equal(await refusal(sendMail(s.smtp, { to: `ntfy-${'t'.repeat(65)}@ntfy.sh`, text: 'x' })), '451 4.0.0 invalid topic');
    assert.deepEqual(await cached(s, 'mytopic'), []);
  });

  it('an unsupported content type is 554 at DATA', async () => {
    const s = await server();
    const reply = await refusal(sendMail(s.smtp, raw('ntfy-mytopic@ntfy.sh', `
Subject: and one more
Content-Type: text/SOMETHINGELSE

what's up
`)));
    assert.equal(reply, '554 5.0.0 Error: transaction failed, blame it on the weather: unsupported content type');
    assert.deepEqual(await cached(s, 'mytopic'), []);
  });

  it('a multipart mail without a text part is 554; a lone attachment is an unsupported content type', async () => {
    const s = await server();
    const picture = { filename: 'a.png', content: Buffer.from([137, 80, 78, 71]) };
    const mixed = await refusal(sendMail(s.smtp, raw('ntfy-pic@ntfy.sh', `
Subject: pic
Content-Type: multipart/mixed; boundary="b"

--b
Content-Type: image/png
Content-Transfer-Encoding: base64

iVBORw==
--b--
`)));
    assert.equal(mixed, '554 5.0.0 Error: transaction failed, blame it on the weather: no text/plain or text/html part');
    const lone = await refusal(sendMail(s.smtp, { to: 'ntfy-pic@ntfy.sh', subject: 'pic', attachments: [picture] }));
    assert.equal(lone, '554 5.0.0 Error: transaction failed, blame it on the weather: unsupported content type');
    assert.deepEqual(await cached(s, 'pic'), []);
  });

  it('one recipient per mail: a second is 452 (the mail goes to the first), a mail over 1 MB is 552', async () => {
    const s = await server();
    const sent = await sendMail(s.smtp, { to: ['ntfy-a@ntfy.sh', 'ntfy-b@ntfy.sh'], text: 'x' });
    assert.deepEqual(sent.rejected, ['ntfy-b@ntfy.sh']);
    assert.match(sent.rejectedErrors?.[0]?.response ?? '', /^452 /);
    assert.deepEqual([(await cached(s, 'a')).length, (await cached(s, 'b')).length], [1, 0]);
    assert.match(await refusal(sendMail(s.smtp, { to: 'ntfy-big@ntfy.sh', text: 'x'.repeat(1_100_000) })), /^552 /);
    assert.deepEqual(await cached(s, 'big'), []);
  });

  it('a disallowed topic is refused at DATA with the HTTP publish\'s error', async () => {
    const s = await server();
    const reply = await refusal(sendMail(s.smtp, { to: 'ntfy-docs@ntfy.sh', text: 'x' }));
    assert.equal(reply, '554 5.0.0 Error: transaction failed, blame it on the weather: error: {"code":40010,"http":400,"error":"invalid request: topic name is not allowed"}');
  });

  it('a subject over message-title-size-limit is refused at DATA (40057), as an HTTP title; one at the limit publishes', async () => {
    const s = await server();
    const reply = await refusal(sendMail(s.smtp, { to: 'ntfy-titled@ntfy.sh', subject: 's'.repeat(1025), text: 'x' }));
    assert.match(reply, /^554 5\.0\.0 Error: transaction failed, blame it on the weather: error: \{"code":40057,"http":400,"error":"invalid request: title too large"/);
    assert.equal(await taken(sendMail(s.smtp, { to: 'ntfy-titled@ntfy.sh', subject: 's'.repeat(1024), text: 'x' })), ok);
    assert.equal((await only(s, 'titled')).title, 's'.repeat(1024));
  });

  it('visitor limits apply to the sending address: the request bucket (42901), then nothing more is published', async () => {
    const s = await server({ 'visitor-request-limit-burst': 2, 'visitor-request-limit-replenish': '1h' });
    assert.equal(await taken(sendMail(s.smtp, { to: 'ntfy-lim@ntfy.sh', text: 'one' })), ok);
    assert.equal(await taken(sendMail(s.smtp, { to: 'ntfy-lim@ntfy.sh', text: 'two' })), ok);
    const reply = await refusal(sendMail(s.smtp, { to: 'ntfy-lim@ntfy.sh', text: 'three' }));
    assert.match(reply, /^554 5\.0\.0 Error: transaction failed, blame it on the weather: error: \{"code":42901,"http":429,/);
  });

  it('metrics: ntfy_emails_received_success and _failure count published and refused mails', async () => {
    const s = await server({ 'enable-metrics': true });
    await sendMail(s.smtp, { to: 'ntfy-m@ntfy.sh', text: 'x' });
    await refusal(sendMail(s.smtp, { to: 'm@ntfy.sh', text: 'x' }));
    await refusal(sendMail(s.smtp, raw('ntfy-m@ntfy.sh', 'Content-Type: application/pdf\n\nx\n')));
    const metrics = await Scrape.of(`${s.url}/metrics`);
    assert.deepEqual([metrics.value('ntfy_emails_received_success'), metrics.value('ntfy_emails_received_failure')], [1, 2]);
  });
});

describe('e-mail in — access control as an HTTP publish from that user', () => {
  // phil may write alerts; everyone else nothing (deny-all).
  const dir = tempDir();
  let files = 0;
  const settings = (): Record<string, unknown> => ({
    'auth-file': join(dir, `auth-${files++}.db`),
    'auth-default-access': 'deny-all',
    'auth-users': [`phil:${bcrypt.hashSync('pw', 4)}:user`],
    'auth-access': ['phil:alerts:rw'],
    'auth-tokens': ['phil:tk_7eevizlsiwf9yi4uxsrs83r4352o0:mail'],
  });

  it('a protected topic without credentials is refused at DATA (403), nothing published', async () => {
    const s = await server(settings());
    const reply = await refusal(sendMail(s.smtp, { to: 'ntfy-alerts@ntfy.sh', text: 'x' }));
    assert.match(reply, /^554 5\.0\.0 Error: transaction failed, blame it on the weather: error: \{"code":40301,"http":403,/);
    const res = await fetch(`${s.url}/alerts/json?poll=1`, { headers: { Authorization: `Basic ${Buffer.from('phil:pw').toString('base64')}` } });
    assert.equal(await res.text(), '');
  });

  it('SMTP AUTH PLAIN publishes as the user; a wrong password is 40101 at DATA', async () => {
    const s = await server(settings());
    assert.equal(await taken(sendMail(s.smtp, { to: 'ntfy-alerts@ntfy.sh', subject: 'by auth', text: 'x' }, { user: 'phil', pass: 'pw' })), ok);
    const reply = await refusal(sendMail(s.smtp, { to: 'ntfy-alerts@ntfy.sh', text: 'x' }, { user: 'phil', pass: 'wrong' }));
    assert.match(reply, /^554 5\.0\.0 Error: transaction failed, blame it on the weather: error: \{"code":40101,"http":401,/);
    const res = await fetch(`${s.url}/alerts/json?poll=1`, { headers: { Authorization: 'Bearer tk_7eevizlsiwf9yi4uxsrs83r4352o0' } });
    assert.deepEqual((await res.text()).trim().split('\n').map((l) => (JSON.parse(l) as Json).title), ['by auth']);
  });

  it('a token in the address (<topic>+<token>) publishes, and wins over AUTH PLAIN', async () => {
    const s = await server(settings());
    assert.equal(await taken(sendMail(s.smtp, { to: 'ntfy-alerts+tk_7eevizlsiwf9yi4uxsrs83r4352o0@ntfy.sh', subject: 'by token', text: 'x' })), ok);
    assert.equal(await taken(sendMail(s.smtp, { to: 'ntfy-alerts+tk_7eevizlsiwf9yi4uxsrs83r4352o0@ntfy.sh', subject: 'token wins', text: 'x' }, { user: 'phil', pass: 'wrong' })), ok);
    const reply = await refusal(sendMail(s.smtp, { to: 'ntfy-alerts+tk_unknown0000000000000000000000@ntfy.sh', text: 'x' }));
    assert.match(reply, /"code":40101/);
    const res = await fetch(`${s.url}/alerts/json?poll=1`, { headers: { Authorization: 'Bearer tk_7eevizlsiwf9yi4uxsrs83r4352o0' } });
    assert.deepEqual((await res.text()).trim().split('\n').map((l) => (JSON.parse(l) as Json).title), ['by token', 'token wins']);
  });
});
