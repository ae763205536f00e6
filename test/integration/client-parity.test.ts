import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { publish } from '../support/clients.js';
import { startTestServer, tempDir, type TestServer } from '../support/server.js';

/**
 * What real clients send (aiontfy for Home Assistant, curl, ntfy's CLI, browsers) and a
 * real ntfy server accepts: each case here was a difference found side by side with ntfy.
 */

let s: TestServer;
let files: TestServer;
const filesDir = join(tempDir(), 'files');
before(async () => {
  s = await startTestServer();
  files = await startTestServer({ 'base-url': 'http://files.example', 'attachment-cache-dir': filesDir });
});
after(() => {
  s.server.close();
  files.server.close();
});

/** A header value as raw UTF-8 bytes on the wire, as curl and Go clients send it (fetch writes a string's code units as bytes). */
const raw = (text: string): string => Buffer.from(text, 'utf8').toString('latin1');

describe('client parity — JSON publishing with nulls (aiontfy)', () => {
  it('every unset field as null publishes, null message gives the default', async () => {
    const body = {
      topic: 'ha',
      message: 'Hi',
      title: null,
      tags: [],
      priority: null,
      click: null,
      attach: null,
      markdown: null,
      icon: null,
      filename: null,
      delay: null,
      email: null,
      call: null,
      sequence_id: null,
      actions: [{ action: 'view', label: 'Open', url: 'https://ha.example', clear: null, headers: null, body: null, method: null }],
    };
    const { status, json } = await publish(s.url, JSON.stringify(body));
    assert.equal(status, 200);
    assert.equal(json.message, 'Hi');
    assert.equal(json.title, undefined);
    assert.equal(json.priority, undefined);
    assert.deepEqual(json.actions, [{ id: (json.actions as { id: string }[])[0]?.id, action: 'view', label: 'Open', url: 'https://ha.example', clear: false }]);
    const unset = await publish(s.url, JSON.stringify({ topic: 'ha', message: null, tags: ['a', null] }));
    assert.equal(unset.json.message, 'triggered');
    assert.deepEqual(unset.json.tags, ['a']);
  });

  it('a JSON body without topic is 40009, as an invalid topic', async () => {
    for (const body of ['{"message":"no topic"}', '{"topic":null}', 'null']) {
      const { status, json } = await publish(s.url, body);
      assert.equal(status, 400, body);
      assert.equal(json.code, 40009, body);
    }
  });

  it('a wrongly typed field is still 40024', async () => {
    const { status, json } = await publish(s.url, '{"topic":"ha","title":5}');
    assert.equal(status, 400);
    assert.equal(json.code, 40024);
  });
});

describe('client parity — header values as UTF-8', () => {
  it('title, tags, click and actions keep every byte, also at their ends', async () => {
    const { status, json } = await publish(`${s.url}/utf8`, 'x', {
      Title: raw('Überschrift 🎉 很棒'),
      Tags: raw('äpfel,🍎'),
      Click: raw('https://example.com/ö'),
      Actions: raw('view, Öffnen 🔗, https://example.com/ä'),
    });
    assert.equal(status, 200);
    assert.equal(json.title, 'Überschrift 🎉 很棒');
    assert.deepEqual(json.tags, ['äpfel', '🍎']);
    assert.equal(json.click, 'https://example.com/ö');
    assert.equal((json.actions as { label: string }[])[0]?.label, 'Öffnen 🔗');
  });

  it("ntfy's CLI title (a non-ASCII first letter) and a message header", async () => {
    const { json } = await publish(`${s.url}/utf8`, '', { 'X-Title': raw('Ünïcode title'), 'X-Message': raw('ß at the start, at the end ß') });
    assert.equal(json.title, 'Ünïcode title');
    assert.equal(json.message, 'ß at the start, at the end ß');
  });

  it('surrounding spaces and tabs are still trimmed', async () => {
    const { json } = await publish(`${s.url}/utf8`, 'x', { Title: raw(' \t Ä \t ') });
    assert.equal(json.title, 'Ä');
  });
});

describe('client parity — RFC 2047 encoded words', () => {
  it('text mixed with an encoded word holding spaces decodes as Go does', async () => {
    const title = 'ntfy 很棒, no really I mean it! =?UTF-8?Q?This is q=C3=BC=C3=B6ted-print=C3=A4ble.?=';
    const { json } = await publish(`${s.url}/mime`, 'x', { Title: raw(title) });
    assert.equal(json.title, 'ntfy 很棒, no really I mean it! This is qüöted-printäble.');
  });

  it('several words: space between two words dropped, text between kept', async () => {
    const { json } = await publish(`${s.url}/mime`, 'x', { Title: '=?UTF-8?B?w5w=?= =?UTF-8?Q?ber?= and =?utf-8?q?mehr?=' });
    assert.equal(json.title, 'Über and mehr');
  });

  it('the Actions header is decoded before the actions are parsed', async () => {
    const { status, json } = await publish(`${s.url}/mime`, 'x', { Actions: 'view, =?utf-8?q?Mettre =C3=A0 jour?=, https://example.com' });
    assert.equal(status, 200);
    assert.equal((json.actions as { label: string }[])[0]?.label, 'Mettre à jour');
  });

  it('a word that does not decode stays as sent', async () => {
    const { json } = await publish(`${s.url}/mime`, 'x', { Title: '=?UTF-8?Q?bad=ZZ?= ok' });
    assert.equal(json.title, '=?UTF-8?Q?bad=ZZ?= ok');
  });
});

describe('client parity — parameters', () => {
  it("RFC 9218's Priority header is ignored; X-Priority, p or the query decide", async () => {
    assert.equal((await publish(`${s.url}/prio`, 'x', { Priority: 'u=1, i' })).json.priority, undefined);
    assert.equal((await publish(`${s.url}/prio`, 'x', { Priority: 'u=9', 'X-Priority': '5' })).json.priority, 5);
    assert.equal((await publish(`${s.url}/prio?p=2`, 'x', { Priority: 'u=3' })).json.priority, 2);
    assert.equal((await publish(`${s.url}/prio`, 'x', { Priority: 'high' })).json.priority, 4);
  });

  it('query parameter names are lower-case only', async () => {
    const { json } = await publish(`${s.url}/query?Title=Upper&Message=M`, 'body');
    assert.equal(json.title, undefined);
    assert.equal(json.message, 'body');
    assert.equal((await publish(`${s.url}/query?title=lower`, 'body')).json.title, 'lower');
  });
});

describe('client parity — message size and attachments', () => {
  it('a body of exactly message-size-limit bytes is an attachment (40014 without uploads)', async () => {
    const atLimit = 'a'.repeat(4096);
    const refused = await publish(`${s.url}/size`, atLimit);
    assert.equal(refused.status, 400);
    assert.equal(refused.json.code, 40014);
    assert.equal((await publish(`${s.url}/size`, atLimit.slice(1))).json.message, atLimit.slice(1));
    const stored = await publish(`${files.url}/size`, atLimit);
    assert.equal(stored.status, 200);
    assert.equal((stored.json.attachment as { size: number }).size, 4096);
    assert.equal(stored.json.message, 'You received a file: attachment.txt');
  });

  it('attach by URL with no Filename and no body: named from the URL, announced in the message', async () => {
    const { json } = await publish(`${s.url}/linked`, '', { Attach: 'https://example.com/files/report%202026.pdf?x=1' });
    assert.deepEqual(json.attachment, { name: 'report 2026.pdf', url: 'https://example.com/files/report%202026.pdf?x=1' });
    assert.equal(json.message, 'You received a file: report 2026.pdf');
    const dir = await publish(`${s.url}/linked`, '', { Attach: 'https://example.com/files/' });
    assert.equal((dir.json.attachment as { name: string }).name, 'files');
    const root = await publish(`${s.url}/linked`, 'See this', { Attach: 'https://example.com/' });
    assert.equal((root.json.attachment as { name: string }).name, 'attachment');
    assert.equal(root.json.message, 'See this');
  });

  it("the file name's extension decides the type when the bytes say nothing more", async () => {
    const zip = Buffer.from([0x50, 0x4b, 0x03, 0x04, 20, 0, 8, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    const apk = await publish(`${files.url}/types`, zip, { Filename: 'app-release.apk' });
    assert.equal((apk.json.attachment as { type: string }).type, 'application/vnd.android.package-archive');
    assert.match((apk.json.attachment as { url: string }).url, /\.apk$/);
    const csv = await publish(`${files.url}/types`, 'a,b\n1,2\n', { Filename: 'data.csv' });
    assert.equal((csv.json.attachment as { type: string }).type, 'text/csv; charset=utf-8');
    const text = await publish(`${files.url}/types`, 'plain words', { Filename: 'notes' });
    assert.equal((text.json.attachment as { type: string }).type, 'text/plain; charset=utf-8');
    const bytes = await publish(`${files.url}/types`, Buffer.from([0x01, 0x02, 0x03, 0xfe, 0x80]), { Filename: 'blob.unknownext' });
    assert.equal((bytes.json.attachment as { type: string }).type, 'application/octet-stream');
  });
});
