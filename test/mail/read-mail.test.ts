import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { ContentRefusal, readMail } from '../../src/mail/inbound/read-mail.js';

const mail = (text: string): Buffer => Buffer.from(text.replace(/^\n/, '').replaceAll('\n', '\r\n'));

async function refusal(raw: Buffer): Promise<string> {
  try {
    await readMail(raw, 4096);
  } catch (err) {
    assert.ok(err instanceof ContentRefusal);
    return err.message;
  }
  return 'accepted';
}

describe('mail in — reading a mail', () => {
  it('text/plain in any charset; base64 and quoted-printable decoded', async () => {
    assert.deepEqual(await readMail(mail('\nSubject: hi\nContent-Type: text/plain; charset=iso-8859-1\nContent-Transfer-Encoding: quoted-printable\n\nGr=FC=DFe\n'), 4096), { title: 'hi', message: 'Grüße' });
    assert.deepEqual(await readMail(mail('\nSubject: b64\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: base64\n\n8J+OhSBobyBobw==\n'), 4096), { title: 'b64', message: '🎅 ho ho' });
  });

  it('no Content-Type is plain text; no subject leaves no title', async () => {
    assert.deepEqual(await readMail(mail('\nFrom: a@b.c\n\n  what\'s up  \n'), 4096), { title: '', message: "what's up" });
  });

  it('an RFC 2047 subject (Q and B) is decoded and trimmed', async () => {
    assert.deepEqual(await readMail(mail('\nSubject:  =?utf-8?q?Caf=C3=A9?= =?UTF-8?B?IOKYlQ==?= \n\nbody\n'), 4096), { title: 'Café ☕', message: 'body' });
  });

  it('subject only: the subject is the message; neither: both empty (the publish says "triggered")', async () => {
    assert.deepEqual(await readMail(mail('\nSubject: only this\n\n\n'), 4096), { title: '', message: 'only this' });
    assert.deepEqual(await readMail(mail('\nFrom: a@b.c\n\n'), 4096), { title: '', message: '' });
  });

  it('HTML-only: words without markup, one block a paragraph, no wrapping', async () => {
    const long = 'word '.repeat(40).trim();
    const { message } = await readMail(mail(`\nContent-Type: text/html\n\n<html><head><style>p{}</style></head><body><h1>Alert</h1><p>${long}</p><ul><li>one</li><li>two &amp; <a href="https://x.y">three</a></li></ul></body></html>\n`), 4096);
    assert.equal(message, `ALERT\n\n${long}\n\n * one\n * two & three`);
  });

  it('multipart: text/plain wins over text/html in either order; an empty text/plain gives way to the HTML', async () => {
    const alt = (first: string, second: string): Buffer => mail(`\nContent-Type: multipart/alternative; boundary=b\n\n--b\n${first}\n--b\n${second}\n--b--\n`);
    const plain = 'Content-Type: text/plain\n\nplain';
    const html = 'Content-Type: text/html\n\n<p>html</p>';
    assert.equal((await readMail(alt(plain, html), 4096)).message, 'plain');
    assert.equal((await readMail(alt(html, plain), 4096)).message, 'plain');
    assert.equal((await readMail(alt('Content-Type: text/plain\n\n', html), 4096)).message, 'html');
  });

  it('refusals: a type other than text or multipart; a multipart mail without text', async () => {
    assert.equal(await refusal(mail('\nContent-Type: text/SOMETHINGELSE\n\nx\n')), 'unsupported content type');
    assert.equal(await refusal(mail('\nContent-Type: application/pdf\n\nx\n')), 'unsupported content type');
    assert.equal(await refusal(mail('\nContent-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: image/png\n\nx\n--b--\n')), 'no text/plain or text/html part');
  });

  it('the message is cut below the limit, at a character boundary', async () => {
    assert.equal((await readMail(mail(`\n\n${'a'.repeat(8)}€€\n`), 11)).message, 'a'.repeat(8), '8 + 3 bytes of € > 10');
    assert.equal((await readMail(mail(`\n\n${'a'.repeat(8)}€€\n`), 12)).message, `${'a'.repeat(8)}€`, '11 bytes < 12');
  });

  it('property: any bytes read as a message that fits, or a refusal; nothing else escapes', async () => {
    const header = fc.constantFrom('', 'Content-Type: text/plain\r\n', 'Content-Type: text/html\r\n', 'Content-Type: multipart/mixed; boundary=b\r\n', 'Content-Transfer-Encoding: base64\r\n', 'Content-Transfer-Encoding: quoted-printable\r\n', 'Subject: =?utf-8?B?w7w=?=\r\n', 'Content-Type: image/gif\r\n');
    const body = fc.oneof(fc.string(), fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b).toString('latin1')), fc.constantFrom('--b\r\nContent-Type: text/plain\r\n\r\nx\r\n--b--', '=C3=', '<p>a<b>b'));
    await fc.assert(
      fc.asyncProperty(fc.array(header, { maxLength: 4 }), body, async (headers, text) => {
        try {
          const { title, message } = await readMail(Buffer.from(`${headers.join('')}\r\n${text}`, 'latin1'), 64);
          assert.ok(Buffer.byteLength(message) < 64);
          assert.equal(typeof title, 'string');
        } catch (err) {
          assert.ok(err instanceof ContentRefusal, String(err));
        }
      }),
      { numRuns: 300 },
    );
  });
});
