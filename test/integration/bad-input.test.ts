import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import WebSocket from 'ws';
import { publish, type Json } from '../support/clients.js';
import { startTestServer, type TestServer } from '../support/server.js';

let s: TestServer;
before(async () => {
  s = await startTestServer({ 'global-topic-limit': 50 });
});
after(() => s.server.close());

async function expectError(res: Response | Promise<Response>, http: number, code: number): Promise<Json> {
  const r = await res;
  const body = (await r.json()) as Json;
  assert.equal(r.status, http, JSON.stringify(body));
  assert.equal(body.code, code, JSON.stringify(body));
  assert.equal(body.http, http);
  assert.equal(typeof body.error, 'string');
  assert.equal(r.headers.get('content-type'), 'application/json');
  return body;
}

const post = (path: string, body: string | Buffer, headers: Record<string, string> = {}): Promise<Response> =>
  fetch(`${s.url}${path}`, { method: 'POST', body, headers });

describe('bad input — publish', () => {
  it('malformed JSON body → 40024', async () => {
    await expectError(post('/', '{"topic": "x",'), 400, 40024);
  });

  it('JSON with wrong types → 40024 naming the field', async () => {
    const body = await expectError(post('/', JSON.stringify({ topic: 'x', priority: 'high' })), 400, 40024);
    assert.match(String(body.error), /priority/);
    await expectError(post('/', JSON.stringify({ topic: 'x', tags: 'a,b' })), 400, 40024);
    await expectError(post('/', JSON.stringify(['x'])), 400, 40024);
  });

  it('JSON without a valid topic → 40009', async () => {
    await expectError(post('/', JSON.stringify({ message: 'x' })), 400, 40009);
    await expectError(post('/', JSON.stringify({ topic: 'bad topic!' })), 400, 40009);
  });

  it('JSON body over twice the message limit → 41303', async () => {
    await expectError(post('/', JSON.stringify({ topic: 'x', message: 'a'.repeat(9000) })), 413, 41303);
  });

  it('bad priority → 40007', async () => {
    await expectError(post('/t1', 'x', { Priority: '6' }), 400, 40007);
    await expectError(post('/t1', 'x', { Priority: 'loud' }), 400, 40007);
    await expectError(post('/', JSON.stringify({ topic: 't1', priority: 9 })), 400, 40007);
  });

  it('bad actions → 40018', async () => {
    await expectError(post('/t1', 'x', { Actions: 'jump, Label, https://x' }), 400, 40018);
    await expectError(post('/t1', 'x', { Actions: 'view, Label' }), 400, 40018);
    await expectError(post('/t1', 'x', { Actions: 'view, A, https://a; view, B, https://b; view, C, https://c; view, D, https://d' }), 400, 40018);
    await expectError(post('/t1', 'x', { Actions: '[{"action":"view"' }), 400, 40018);
  });

  it('oversize body without attachment support → 40014', async () => {
    await expectError(post('/t1', 'a'.repeat(5000)), 400, 40014);
  });

  it('non-UTF-8 body → 40014 (would be a file upload); with Attach → 40011', async () => {
    const binary = Buffer.from([0xc3, 0x28, 0xff]);
    await expectError(post('/t1', binary), 400, 40014);
    await expectError(post('/t1', binary, { Attach: 'https://x.y/z' }), 400, 40011);
  });

  it('bad attachment and icon URLs → 40013 / 40021', async () => {
    await expectError(post('/t1', 'x', { Attach: 'ftp://x.y/z' }), 400, 40013);
    await expectError(post('/t1', 'x', { Icon: 'not-a-url' }), 400, 40021);
  });

  it('e-mail and calls are not configured → 40001 / 40032', async () => {
    await expectError(post('/t1', 'x', { Email: 'a@b.c' }), 400, 40001);
    await expectError(post('/t1', 'x', { Call: '+12223334444' }), 400, 40032);
  });

  it('bad delays → 40004 / 40005 / 40006 / 40002', async () => {
    await expectError(post('/t1', 'x', { Delay: 'whenever pigs fly' }), 400, 40004);
    await expectError(post('/t1', 'x', { In: '5s' }), 400, 40005);
    await expectError(post('/t1', 'x', { In: '4 days' }), 400, 40006);
    await expectError(post('/t1', 'x', { In: '1h', Cache: 'no' }), 400, 40002);
  });

  it('bad sequence id → 40049', async () => {
    await expectError(post('/t1', 'x', { 'X-Sequence-ID': 'has spaces' }), 400, 40049);
  });

  it('uploads (Filename) need attachment-cache-dir → 40014', async () => {
    await expectError(post('/t1', 'x', { Filename: 'a.txt' }), 400, 40014);
  });

  it('a templated publish needs a JSON body → 40042 (every template error: templates.test.ts)', async () => {
    await expectError(post('/t1', 'not json', { Template: 'yes' }), 400, 40042);
  });
});

describe('bad input — topics and paths', () => {
  it('a reserved topic → 40010 to publish, 40009 to subscribe (ntfy\'s topicsFromPath), in every format', async () => {
    await expectError(post('/docs', 'x'), 400, 40010);
    await expectError(post('/v1', 'x'), 400, 40010);
    await expectError(post('/', JSON.stringify({ topic: 'account', message: 'x' })), 400, 40010);
    await expectError(fetch(`${s.url}/ok,v1/json?poll=1`), 400, 40009);
    for (const format of ['json', 'sse', 'raw']) await expectError(fetch(`${s.url}/v1/${format}`), 400, 40009);
    const refused = await new Promise<Json>((resolve, reject) => {
      const ws = new WebSocket(`${s.url.replace('http', 'ws')}/static/ws`);
      ws.on('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve(JSON.parse(body) as Json));
      });
      ws.on('open', () => reject(new Error('upgraded')));
    });
    assert.equal(refused.code, 40009);
  });

  it('configured disallowed-topics are refused on top of the reserved names, and /v1/config lists them all', async () => {
    const t = await startTestServer({ 'disallowed-topics': ['secret', 'docs'] });
    after(() => t.server.close());
    const config = (await (await fetch(`${t.url}/v1/config`)).json()) as Json;
    assert.deepEqual(config.disallowed_topics, ['secret', 'docs', 'static', 'file', 'app', 'metrics', 'account', 'settings', 'signup', 'login', 'v1']);
    await expectError(fetch(`${t.url}/secret`, { method: 'POST', body: 'x' }), 400, 40010);
    await expectError(fetch(`${t.url}/login`, { method: 'POST', body: 'x' }), 400, 40010);
    await expectError(fetch(`${t.url}/secret/json?poll=1`), 400, 40009);
    assert.equal((await fetch(`${t.url}/secrets`, { method: 'POST', body: 'x' })).status, 200, 'only whole names');
  });

  it('a topic name with bad characters or over 64 characters → 40401', async () => {
    await expectError(post('/bad$topic', 'x'), 404, 40401);
    await expectError(post(`/${'a'.repeat(65)}`, 'x'), 404, 40401);
  });

  it('the global topic limit → 42904, and known topics still work', async () => {
    const results: number[] = [];
    for (let i = 0; i < 60; i++) results.push((await post(`/limit${i}`, 'x')).status);
    assert.ok(results.includes(429));
    await expectError(post('/limit-over', 'x'), 429, 42904);
    assert.equal((await post('/limit0', 'again')).status, 200);
  });

  it('an unknown path → 40401', async () => {
    await expectError(fetch(`${s.url}/a/b/c`), 404, 40401);
    await expectError(fetch(`${s.url}/`), 404, 40401);
  });
});

describe('bad input — subscribe', () => {
  it('bad since → 40008', async () => {
    await expectError(fetch(`${s.url}/t1/json?poll=1&since=yesterday-ish`), 400, 40008);
  });

  it('bad priority filter → 40007', async () => {
    await expectError(fetch(`${s.url}/t1/json?poll=1&priority=7`), 400, 40007);
  });

  it('not a WebSocket on /ws → 40016', async () => {
    await expectError(fetch(`${s.url}/t1/ws`), 400, 40016);
  });

  it('the server keeps working after every bad input', async () => {
    const { status, json } = await publish(`${s.url}/t1`, 'still alive');
    assert.equal(status, 200);
    assert.equal(json.message, 'still alive');
  });
});
