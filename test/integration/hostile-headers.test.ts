import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Json } from '../support/clients.js';
import { ntfyCode, send } from '../support/fuzz-client.js';
import { startTestServer, tempDir, type TestServer } from '../support/server.js';

// Issue 33, findings 3, 4 and 7: header values decoded in quadratic time before any guard,
// chrono-node's quadratic delays, and titles and tags of any size.
let open: TestServer;
let denied: TestServer;
let limited: TestServer;
before(async () => {
  open = await startTestServer();
  denied = await startTestServer({ 'auth-file': join(tempDir(), 'auth.db'), 'auth-default-access': 'deny-all' });
  limited = await startTestServer({ 'visitor-request-limit-burst': 1, 'visitor-request-limit-replenish': '1h' });
});
after(async () => {
  await Promise.all([open, denied, limited].map((s) => s.server.close()));
});

/** The worst value for the old decoder: words opened and never closed until the end. */
const hostileWords = (bytes: number): string => `${'=?a?B?!'.repeat(Math.floor((bytes - 2) / 7))}?=`;

/** A request written in one piece (uWS reads a head of any size that arrives in one read). */
function raw(s: TestServer, method: string, path: string, headers: Record<string, string>, body = ''): Promise<{ status: number | string; code: number | undefined; ms: number }> {
  const lines = Object.entries({ Host: '127.0.0.1', 'Content-Length': String(Buffer.byteLength(body)), ...headers }).map(([k, v]) => `${k}: ${v}\r\n`);
  const started = performance.now();
  return send(s.port, Buffer.from(`${method} ${path} HTTP/1.1\r\n${lines.join('')}\r\n${body}`), 5000).then((answer) => ({ status: answer.status, code: ntfyCode(answer), ms: performance.now() - started }));
}

/** GET /v1/health's time, asserting the answer. */
async function healthMs(s: TestServer): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${s.url}/v1/health`);
  assert.deepEqual(await res.json(), { healthy: true });
  return performance.now() - started;
}

/** Runs `attack` while GET /v1/health is asked again and again; the slowest health answer, in ms. */
async function slowestHealthDuring(s: TestServer, attack: () => Promise<void>): Promise<number> {
  let done = false;
  let slowest = 0;
  const watching = (async () => {
    while (!done) slowest = Math.max(slowest, await healthMs(s));
  })();
  try {
    await attack();
  } finally {
    done = true;
    await watching;
  }
  return slowest;
}

const post = (s: TestServer, path: string, body: string, headers: Record<string, string> = {}): Promise<Response> => fetch(`${s.url}${path}`, { method: 'POST', body, headers });

/** A header value carrying `text` as raw UTF-8 bytes, as ntfy's Go clients send it (fetch sends a header's characters as bytes). */
const utf8 = (text: string): string => Buffer.from(text).toString('latin1');

async function refused(res: Promise<Response>): Promise<[number, unknown]> {
  const r = await res;
  const body = (await r.json()) as Json;
  return [r.status, body.code];
}

describe('hostile headers — 431 before anything else', () => {
  it('a 60 KB X-Template, Title or X-UnifiedPush is 431 (43101) at once: publish, JSON publish, health, topic page, subscription, WebSocket upgrade', async () => {
    const big = hostileWords(60 * 1024);
    const slowest = await slowestHealthDuring(open, async () => {
      for (const [method, path, name] of [
        ['POST', '/hostile', 'X-Template'],
        ['PUT', '/hostile', 'Title'],
        ['POST', '/', 'X-Title'],
        ['GET', '/v1/health', 'X-Anything'],
        ['GET', '/hostile', 'X-UnifiedPush'],
        ['GET', '/hostile/json?poll=1', 'X-Message'],
        ['GET', '/nowhere/at/all', 'X-Template'],
      ] as const) {
        const answer = await raw(open, method, path, { [name]: big }, method === 'GET' ? '' : 'x');
        assert.deepEqual([answer.status, answer.code], [431, 43101], `${method} ${path} ${name}`);
        assert.ok(answer.ms < 500, `${method} ${path}: ${answer.ms.toFixed(0)} ms`);
      }
      const upgrade = await raw(open, 'GET', '/hostile/ws', { Upgrade: 'websocket', Connection: 'Upgrade', 'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==', 'Sec-WebSocket-Version': '13', 'X-Title': big });
      assert.deepEqual([upgrade.status, upgrade.code], [431, 43101]);
    });
    assert.ok(slowest < 500, `health took ${slowest.toFixed(0)} ms`);
  });

  it('one line of 8 KB passes, one byte more is 431; many lines are 431 past 32 KB in all', async () => {
    const line = (bytes: number): Record<string, string> => ({ 'X-Filler': 'a'.repeat(bytes - 'x-filler: '.length) });
    assert.equal((await raw(open, 'GET', '/v1/health', line(8192))).status, 200);
    assert.deepEqual([(await raw(open, 'GET', '/v1/health', line(8193))).code], [43101]);
    const lines = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`X-Filler-${i}`, 'a'.repeat(7000)]));
    assert.deepEqual([(await raw(open, 'GET', '/v1/health', lines)).code], [43101]);
  });

  it("ntfy clients' real headers pass: an X-Message of message-size-limit RFC 2047-encoded, three JSON actions, a 1 KB title, Authorization", async () => {
    const message = 'ü'.repeat(2047); // 4094 bytes, under message-size-limit
    const actions = JSON.stringify(
      Array.from({ length: 3 }, (_, i) => ({ action: 'http', label: `Action ${i}`, url: `https://example.com/hook/${'p'.repeat(200)}`, method: 'POST', headers: { Authorization: `Bearer ${'t'.repeat(100)}` }, body: JSON.stringify({ entity: 'light.kitchen', n: i }) })),
    );
    const res = await fetch(`${open.url}/clients`, {
      method: 'PUT',
      headers: { 'X-Message': `=?UTF-8?B?${Buffer.from(message).toString('base64')}?=`, 'X-Actions': actions, Title: 't'.repeat(1024), Authorization: `Basic ${Buffer.from('phil:secret').toString('base64')}`, Tags: 'warning,skull' },
    });
    const body = (await res.json()) as Json;
    assert.equal(res.status, 200, JSON.stringify(body));
    assert.equal(body.message, message);
    assert.equal((body.actions as unknown[]).length, 3);
  });
});

describe('hostile headers — refused requests are not decoded', () => {
  const template = hostileWords(8000); // under the line limit

  it('an 8 KB hostile X-Template or X-UnifiedPush to a refused publish is answered 403 or 42901 at once', async () => {
    const slowest = await slowestHealthDuring(denied, async () => {
      for (let i = 0; i < 20; i++) {
        const started = performance.now();
        assert.deepEqual(await refused(post(denied, '/secret', '{}', { 'X-Template': template, 'X-UnifiedPush': template })), [403, 40301]);
        assert.ok(performance.now() - started < 500);
      }
    });
    assert.ok(slowest < 500, `health took ${slowest.toFixed(0)} ms`);
    assert.equal((await post(limited, '/busy', 'x')).status, 200);
    for (let i = 0; i < 20; i++) assert.deepEqual(await refused(post(limited, '/busy', '{}', { 'X-Template': template })), [429, 42901]);
  });

  it('GET /{topic} reads up=1 as sent: a hostile X-UnifiedPush is no discovery, and costs nothing', async () => {
    const res = await fetch(`${open.url}/page`, { headers: { 'X-UnifiedPush': template } });
    assert.equal(res.status, 404);
    await res.arrayBuffer();
    assert.deepEqual(await (await fetch(`${open.url}/page`, { headers: { 'X-UnifiedPush': '1' } })).json(), { unifiedpush: { version: 1 } });
  });
});

describe('hostile headers — delays', () => {
  it('"jan" + 60,000 spaces + "!" is 40006 in milliseconds (query), as is a delay over 64 characters in a header or JSON', async () => {
    const slowest = await slowestHealthDuring(open, async () => {
      const answer = await raw(open, 'POST', `/later?delay=jan${'+'.repeat(60_000)}!`, {}, 'x');
      assert.deepEqual([answer.status, answer.code], [400, 40006]);
      assert.ok(answer.ms < 500, `${answer.ms.toFixed(0)} ms`);
      assert.deepEqual(await refused(post(open, '/later', 'x', { 'X-Delay': `jan${' '.repeat(7000)}!` })), [400, 40006]);
      assert.deepEqual(await refused(post(open, '/', JSON.stringify({ topic: 'later', delay: `next ${'monday '.repeat(10)}` }))), [400, 40006]);
    });
    assert.ok(slowest < 500, `health took ${slowest.toFixed(0)} ms`);
    const ok = (await (await post(open, '/later', 'x', { In: `   ${'tomorrow, 3pm'}   ` })).json()) as Json;
    assert.equal(ok.event, 'message');
  });
});

describe('hostile headers — title and tags sizes (ntfy 2.28)', () => {
  it('a 70 KB title is 431 as a header and 40057 in the query; a JSON publish with one is 41303 (over twice message-size-limit)', async () => {
    const title = 't'.repeat(70 * 1024);
    assert.deepEqual([(await raw(open, 'POST', '/titled', { Title: title }, 'x')).code], [43101]);
    const query = await raw(open, 'POST', `/titled?title=${title}`, {}, 'x');
    assert.deepEqual([query.status, query.code], [400, 40057]);
    assert.deepEqual(await refused(post(open, '/', JSON.stringify({ topic: 'titled', title }))), [413, 41303]);
  });

  it('title: 1024 bytes pass, 1025 are 40057, counted in UTF-8 bytes, in a header, the query and JSON', async () => {
    const at = ['a'.repeat(1024), 'é'.repeat(512), `${'€'.repeat(341)}a`]; // 1024 bytes each
    const over = ['a'.repeat(1025), `${'é'.repeat(512)}a`, `${'€'.repeat(341)}aa`];
    for (const title of at) {
      assert.equal(((await (await post(open, '/titled', 'x', { 'X-Title': utf8(title) })).json()) as Json).title, title);
      assert.equal(((await (await post(open, `/titled?title=${encodeURIComponent(title)}`, 'x')).json()) as Json).title, title);
      assert.equal(((await (await post(open, '/', JSON.stringify({ topic: 'titled', title }))).json()) as Json).title, title);
    }
    for (const title of over) {
      assert.deepEqual(await refused(post(open, '/titled', 'x', { 'X-Title': utf8(title) })), [400, 40057]);
      assert.deepEqual(await refused(post(open, `/titled?t=${encodeURIComponent(title)}`, 'x')), [400, 40057]);
      assert.deepEqual(await refused(post(open, '/', JSON.stringify({ topic: 'titled', title }))), [400, 40057]);
    }
  });

  it('tags: 512 bytes in all pass, 513 are 40058, in a header, the query and JSON', async () => {
    const tags = (bytes: number): string[] => ['a'.repeat(100), 'ü'.repeat(100), 'b'.repeat(bytes - 300)]; // 100 + 200 + the rest
    const sent = tags(512);
    assert.deepEqual(((await (await post(open, '/tagged', 'x', { Tags: utf8(sent.join(',')) })).json()) as Json).tags, sent);
    assert.deepEqual(((await (await post(open, `/tagged?tags=${encodeURIComponent(sent.join(', '))}`, 'x')).json()) as Json).tags, sent);
    assert.deepEqual(((await (await post(open, '/', JSON.stringify({ topic: 'tagged', tags: sent }))).json()) as Json).tags, sent);
    const over = tags(513);
    assert.deepEqual(await refused(post(open, '/tagged', 'x', { 'X-Tags': utf8(over.join(',')) })), [400, 40058]);
    assert.deepEqual(await refused(post(open, `/tagged?ta=${encodeURIComponent(over.join(','))}`, 'x')), [400, 40058]);
    assert.deepEqual(await refused(post(open, '/', JSON.stringify({ topic: 'tagged', tags: over }))), [400, 40058]);
  });

  it('a template rendering a title over message-title-size-limit is 40041, as one rendering too long a message', async () => {
    assert.deepEqual(await refused(post(open, '/templated', '{}', { Template: 'yes', Title: '{{ repeat 1025 "x" }}', Message: 'hi' })), [400, 40041]);
    const ok = (await (await post(open, '/templated', '{}', { Template: 'yes', Title: '{{ repeat 1024 "x" }}', Message: 'hi' })).json()) as Json;
    assert.equal(String(ok.title).length, 1024);
  });
});
