import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import WebSocket from 'ws';
import { postChunked, publish, type Json } from '../support/clients.js';
import { spawnServer, startTestServer, tempDir, type TestServer } from '../support/server.js';

/** Uploads (attachment-cache-dir): bodies that become files, their download, limits and expiry. */

const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 1, 2, 3]);

/** A server with uploads on; closed when the calling test ends. */
async function server(settings: Record<string, unknown> = {}, dir = join(tempDir(), 'files')): Promise<TestServer & { dir: string }> {
  const s = await startTestServer({ 'base-url': 'http://files.example', 'attachment-cache-dir': dir, ...settings });
  after(() => s.server.close());
  return { ...s, dir };
}

async function pollJson(topicUrl: string): Promise<Json[]> {
  const text = await (await fetch(`${topicUrl}/json?poll=1`)).text();
  return text.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Json);
}

/** What the attachment directory holds besides its index (index.db and SQLite's files beside it). */
const uploadedFiles = (dir: string): string[] => readdirSync(dir).filter((name) => !name.startsWith('index.db'));

const fileId = (attachment: unknown): string => /\/file\/([A-Za-z0-9]+)/.exec((attachment as { url: string }).url)?.[1] as string;

// One server for the upload tests, made and closed at the top level (a hook inside
// `before` would run as soon as `before` ends).
const sharedDir = mkdtempSync(join(tmpdir(), 'tocsin-files-'));
let s: TestServer & { dir: string };
before(async () => {
  const started = await startTestServer({ 'base-url': 'http://files.example', 'attachment-cache-dir': sharedDir });
  s = { ...started, dir: sharedDir };
});
after(async () => {
  await s.server.close();
  rmSync(sharedDir, { recursive: true, force: true });
});

describe('attachments — uploads', () => {
  it('a body over message-size-limit becomes a text file', async () => {
    const text = 'x'.repeat(5000);
    const { status, json } = await publish(`${s.url}/docs-topic`, text);
    assert.equal(status, 200);
    assert.equal(json.message, 'You received a file: attachment.txt');
    const a = json.attachment as Json;
    assert.deepEqual([a.name, a.type, a.size], ['attachment.txt', 'text/plain; charset=utf-8', 5000]);
    assert.equal(a.url, `http://files.example/file/${json.id as string}.txt`);
    assert.ok(Math.abs((a.expires as number) - (Date.now() / 1000 + 3 * 3600)) < 5, 'kept attachment-expiry-duration (3h)');
    assert.equal(readFileSync(join(s.dir, json.id as string), 'utf8'), text);
  });

  it('a binary body is sniffed (image/png) and named by its type', async () => {
    const { json } = await publish(`${s.url}/img`, png);
    assert.deepEqual([(json.attachment as Json).name, (json.attachment as Json).type], ['attachment.png', 'image/png']);
  });

  it('a Filename makes even a small text body a file; a Message header stays the text', async () => {
    const named = await publish(`${s.url}/img`, 'hello', { Filename: 'note.md' });
    assert.deepEqual([named.json.message, (named.json.attachment as Json).name, (named.json.attachment as Json).size], ['You received a file: note.md', 'note.md', 5]);
    const captioned = await publish(`${s.url}/img`, png, { Filename: 'photo.png', Message: 'Look' });
    assert.equal(captioned.json.message, 'Look');
  });

  it('downloads whole, by HEAD, and by range; unknown files and bad ranges are refused', async () => {
    const { json } = await publish(`${s.url}/dl`, '0123456789', { Filename: 'digits.txt' });
    const url = `${s.url}/file/${fileId(json.attachment)}.txt`;
    const whole = await fetch(url);
    assert.deepEqual([whole.status, whole.headers.get('content-type'), whole.headers.get('content-length'), await whole.text()], [200, 'text/plain; charset=utf-8', '10', '0123456789']);
    assert.equal(whole.headers.get('content-disposition'), 'attachment; filename="digits.txt"');
    const head = await fetch(url, { method: 'HEAD' });
    assert.deepEqual([head.status, head.headers.get('content-length'), await head.text()], [200, '10', '']);
    const part = await fetch(url, { headers: { Range: 'bytes=2-5' } });
    assert.deepEqual([part.status, part.headers.get('content-range'), await part.text()], [206, 'bytes 2-5/10', '2345']);
    const tail = await fetch(url, { headers: { Range: 'bytes=-3' } });
    assert.equal(await tail.text(), '789');
    assert.equal((await fetch(url, { headers: { Range: 'bytes=20-30' } })).status, 416);
    const missing = await fetch(`${s.url}/file/doesnotexist`);
    assert.deepEqual([missing.status, ((await missing.json()) as Json).code], [404, 40401]);
  });

  it('an attachment that would expire before its delayed delivery is refused (40015)', async () => {
    const t = await server({ 'attachment-expiry-duration': '1m', 'message-delay-min': '1s' });
    const { status, json } = await publish(`${t.url}/later`, 'file', { Filename: 'a.txt', In: '2m' });
    assert.deepEqual([status, json.code], [400, 40015]);
  });
});

describe('attachments — limits', () => {
  it('per file: refused at once with Content-Length, or the moment the stream passes it, leaving no file', async () => {
    const t = await server({ 'attachment-file-size-limit': '100k' });
    const big = Buffer.alloc(300 * 1024, 1);
    const announced = await publish(`${t.url}/big`, big);
    assert.deepEqual([announced.status, announced.json.code], [413, 41301]);
    const [status, json] = await postChunked(`${t.url}/big`, big);
    assert.deepEqual([status, json.code], [413, 41301]);
    assert.deepEqual(uploadedFiles(t.dir), [], 'no partial file');
    assert.equal((await publish(`${t.url}/big`, Buffer.alloc(50 * 1024, 1))).status, 200, 'the server goes on');
  });

  it('per visitor and for the server in all', async () => {
    const perVisitor = await server({ 'visitor-attachment-total-size-limit': '1500' });
    assert.equal((await publish(`${perVisitor.url}/v`, Buffer.alloc(1000, 0xff))).status, 200);
    assert.deepEqual([(await publish(`${perVisitor.url}/v`, Buffer.alloc(1000, 0xff))).json.code], [41301]);
    const account = (await (await fetch(`${perVisitor.url}/v1/account`)).json()) as Json;
    assert.equal(account.stats, undefined, 'no account API without an auth-file');
    const global = await server({ 'attachment-total-size-limit': '1500', 'behind-proxy': true });
    const first = await publish(`${global.url}/g`, Buffer.alloc(1000, 0xff), { 'X-Forwarded-For': '198.51.100.1' });
    assert.equal(first.status, 200);
    const other = await postChunked(`${global.url}/g`, Buffer.alloc(1000, 0xff), { 'X-Forwarded-For': '198.51.100.2' });
    assert.deepEqual([other[0], other[1].code], [413, 41301], 'another visitor, but the server is full');
    assert.deepEqual(uploadedFiles(global.dir), [fileId(first.json.attachment)], 'the first file only');
  });

  it('uploads of one visitor running at once share its total: one of two gets 41301', async () => {
    const t = await server({ 'visitor-attachment-total-size-limit': '400k' });
    const results = await Promise.all([0, 1].map(() => postChunked(`${t.url}/both`, Buffer.alloc(300 * 1024, 1))));
    assert.deepEqual(results.map(([status]) => status).sort(), [200, 413]);
    const kept = results.find(([status]) => status === 200)?.[1];
    assert.deepEqual(uploadedFiles(t.dir), [fileId(kept?.attachment)], 'one file');
  });

  it('housekeeping removes expired files, freeing the visitor\'s share', async () => {
    const t = await server({ 'attachment-expiry-duration': '1s', 'manager-interval': '1s', 'visitor-attachment-total-size-limit': '1500' });
    const { json } = await publish(`${t.url}/exp`, Buffer.alloc(1000, 0xff));
    assert.equal((await publish(`${t.url}/exp`, Buffer.alloc(1000, 0xff))).status, 413);
    await sleep(3000);
    assert.equal((await fetch(`${t.url}/file/${fileId(json.attachment)}`)).status, 404);
    assert.deepEqual(uploadedFiles(t.dir), []);
    const [cached] = (await pollJson(`${t.url}/exp`)).filter((m) => m.id === json.id);
    assert.deepEqual([cached?.message, cached?.attachment], [`You received a file: ${(json.attachment as Json).name as string}`, undefined], 'the message lost its attachment entry');
    assert.equal((await publish(`${t.url}/exp`, Buffer.alloc(1000, 0xff))).status, 200, 'the share is free again');
  });

  it('without base-url the start is refused, as ntfy', async () => {
    await assert.rejects(startTestServer({ 'attachment-cache-dir': tempDir() }), /if attachment-cache-dir is set, base-url must also be set/);
  });
});

describe('attachments — daily bandwidth', () => {
  const from = (address: string): Record<string, string> => ({ 'X-Forwarded-For': address });

  it('downloads draw on the uploader\'s bandwidth (42905 when used up); HEAD is free', async () => {
    const t = await server({ 'visitor-attachment-daily-bandwidth-limit': '2500', 'behind-proxy': true });
    const { json } = await publish(`${t.url}/bw`, Buffer.alloc(1000, 0xff), from('198.51.100.1')); // the upload takes 1000
    const url = `${t.url}/file/${fileId(json.attachment)}`;
    assert.equal((await fetch(url, { headers: from('198.51.100.2') })).status, 200); // 2000
    const refused = await fetch(url, { headers: from('198.51.100.3') });
    assert.deepEqual([refused.status, ((await refused.json()) as Json).code], [429, 42905], 'another downloader, the same uploader');
    assert.equal((await fetch(url, { method: 'HEAD', headers: from('198.51.100.3') })).status, 200);
    const part = await fetch(url, { headers: { ...from('198.51.100.3'), Range: 'bytes=0-99' } });
    assert.deepEqual([part.status, (await part.arrayBuffer()).byteLength], [206, 100], 'a range costs its own length'); // 2100
    const upload = await publish(`${t.url}/bw`, Buffer.alloc(1000, 0xff), from('198.51.100.1'));
    assert.deepEqual([upload.status, upload.json.code], [413, 41301], 'uploads draw on it too, as ntfy');
    assert.equal((await publish(`${t.url}/bw`, Buffer.alloc(1000, 0xff), from('198.51.100.9'))).status, 200, 'others still upload');
  });

  it('replays draw on the subscriber\'s bandwidth: 429/42905 with no message sent, on every format', async () => {
    const t = await server({ 'visitor-attachment-daily-bandwidth-limit': '3000' });
    for (let i = 0; i < 10; i++) assert.equal((await publish(`${t.url}/replayed`, `message ${i} ${'x'.repeat(150)}`)).status, 200);
    assert.equal((await pollJson(`${t.url}/replayed`)).length, 10); // about 2,300 of the 3,000 bytes
    for (const path of ['json?poll=1', 'sse?since=all', 'raw?since=all', 'json?since=all']) {
      const res = await fetch(`${t.url}/replayed/${path}`);
      assert.deepEqual([path, res.status, ((await res.json()) as Json).code], [path, 429, 42905]);
    }
    const ws = new WebSocket(`${t.url.replace('http', 'ws')}/replayed/ws?since=all`);
    const status = await new Promise<number | undefined>((resolve) => ws.on('unexpected-response', (_req, res) => resolve(res.statusCode)));
    assert.equal(status, 429);
    const live = await fetch(`${t.url}/replayed/json?poll=1&since=none`);
    assert.deepEqual([live.status, await live.text()], [200, ''], 'a request that replays nothing costs nothing');
  });
});

describe('attachments — memory', () => {
  it('a 15 MB upload streams to disk: the server\'s RSS grows by a few MB at most', async () => {
    const dir = tempDir();
    const child = await spawnServer(['--base-url', 'http://files.example', '--attachment-cache-dir', join(dir, 'files'), '--attachment-file-size-limit', '20M']);
    const rss = (): number => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.child.pid as number}/status`, 'utf8'))?.[1]) * 1024;
    await publish(`${child.url}/warm`, Buffer.alloc(1024 * 1024, 7)); // first upload loads file-type and warms the path
    const before = rss();
    const [status, json] = await postChunked(`${child.url}/big`, Buffer.alloc(15 * 1024 * 1024, 9));
    const grown = rss() - before;
    assert.deepEqual([status, (json.attachment as Json).size], [200, 15 * 1024 * 1024]);
    console.log(`# RSS delta of a 15 MB upload: ${(grown / 1024 / 1024).toFixed(1)} MB`);
    assert.ok(grown < 8 * 1024 * 1024, `RSS grew by ${(grown / 1024 / 1024).toFixed(1)} MB`);
  });
});
