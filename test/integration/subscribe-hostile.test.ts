import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import WebSocket from 'ws';
import type { ReplayQuery } from '../../src/store/message-cache.js';
import { LineStream, publish, type Json } from '../support/clients.js';
import { spawnServer, startTestServer, type TestServer } from '../support/server.js';
import { until } from '../support/wait.js';

/** Issue 33, findings 1 and 6: what one subscription request naming many topics may cost. */

async function server(settings: Record<string, unknown>): Promise<TestServer> {
  const s = await startTestServer(settings);
  after(() => s.server.close());
  return s;
}

async function refusal(res: Promise<Response>): Promise<[number, unknown]> {
  const r = await res;
  return [r.status, ((await r.json()) as Json).code];
}

/** The status of a WebSocket upgrade and its body: 101 when it opened, else the refusal's. */
function upgrade(url: string): Promise<[number, unknown]> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url.replace('http', 'ws'));
    socket.on('unexpected-response', (_req, res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve([res.statusCode ?? 0, (JSON.parse(body) as Json).code]));
    });
    socket.on('open', () => {
      socket.close();
      resolve([101, undefined]);
    });
  });
}

/** `count` distinct short topic names starting at `from` (none of them reserved). */
const names = (count: number, from = 0): string[] => Array.from({ length: count }, (_, i) => `t${(from + i).toString(36)}`);

/** The slowest GET /v1/health while `work` runs, asked one after another. */
async function slowestHealth(url: string, work: Promise<unknown>): Promise<number> {
  let done = false;
  void work.finally(() => (done = true));
  let slowest = 0;
  do {
    const start = performance.now();
    assert.equal((await fetch(`${url}/v1/health`)).status, 200);
    slowest = Math.max(slowest, performance.now() - start);
  } while (!done);
  return slowest;
}

describe('subscribe — one topic named many times', () => {
  it('a poll naming a topic of a few MB 1,500 times answers quickly with one copy, /v1/health under 200 ms, memory bounded', async () => {
    const child = await spawnServer(['--message-size-limit', '64k']);
    const rss = (): number => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.child.pid as number}/status`, 'utf8'))?.[1]) * 1024;
    const body = 'x'.repeat(60_000);
    for (let i = 0; i < 55; i++) assert.equal((await publish(`${child.url}/big`, body)).status, 200);
    const before = rss();
    const started = performance.now();
    const poll = fetch(`${child.url}/${Array(1500).fill('big').join(',')}/json?poll=1`).then(async (res) => [res.status, (await res.text()).trimEnd().split('\n').length]);
    const slowest = await slowestHealth(child.url, poll);
    assert.deepEqual(await poll, [200, 55], 'each message once');
    assert.ok(performance.now() - started < 3000, `answered in ${Math.round(performance.now() - started)} ms`);
    assert.ok(slowest < 200, `slowest /v1/health ${Math.round(slowest)} ms`);
    assert.ok(rss() - before < 100 * 1024 * 1024, `RSS grew ${Math.round((rss() - before) / 1e6)} MB`);
  });

  it('a live filtered subscription naming a topic 3,000 times gets each message once', async () => {
    const s = await server({});
    const stream = new LineStream(`${s.url}/${Array(3000).fill('echo').join(',')}/json?priority=5`);
    after(() => stream.close());
    assert.equal((await stream.nextJson()).event, 'open');
    assert.equal((await publish(`${s.url}/echo`, 'urgent', { Priority: '5' })).status, 200);
    assert.equal((await publish(`${s.url}/echo`, 'low', { Priority: '1' })).status, 200);
    assert.equal((await publish(`${s.url}/echo`, 'last', { Priority: '5' })).status, 200);
    const received = [(await stream.nextJson()).message, (await stream.nextJson()).message];
    assert.deepEqual(received, ['urgent', 'last'], 'the next line after the first is the third message, not a copy of the first');
  });
});

describe('subscribe — subscription-topic-limit', () => {
  it('more distinct topics than the limit are 400/40090 on json, sse, raw, ws and auth; duplicates do not count', async () => {
    const s = await server({ 'subscription-topic-limit': 5 });
    const six = names(6).join(',');
    for (const format of ['json', 'sse', 'raw', 'auth']) assert.deepEqual(await refusal(fetch(`${s.url}/${six}/${format}?poll=1`)), [400, 40090], format);
    assert.deepEqual(await upgrade(`${s.url}/${six}/ws`), [400, 40090]);
    const fiveNamedTwice = [...names(5), ...names(5)].join(',');
    const poll = await fetch(`${s.url}/${fiveNamedTwice}/json?poll=1`);
    assert.deepEqual([poll.status, await poll.text()], [200, '']);
    assert.deepEqual(await upgrade(`${s.url}/${fiveNamedTwice}/ws`), [101, undefined]);
  });

  it('the default admits the 250 topics ntfy\'s Android app may join into one connection, and refuses the 251st', async () => {
    const s = await server({});
    const ok = await fetch(`${s.url}/${names(250).join(',')}/json?poll=1`);
    assert.deepEqual([ok.status, await ok.text()], [200, '']);
    assert.deepEqual(await refusal(fetch(`${s.url}/${names(251).join(',')}/json?poll=1`)), [400, 40090]);
  });
});

describe('subscribe — topics of polls and ended subscriptions', () => {
  it('four polls of 4,000 fresh topics each leave publishing to a new topic working (no 42904) at global-topic-limit 4000', async () => {
    const s = await server({ 'global-topic-limit': 4000, 'subscription-topic-limit': 10_000 });
    for (let i = 0; i < 4; i++) {
      const res = await fetch(`${s.url}/${names(4000, i * 4000).join(',')}/json?poll=1`);
      assert.deepEqual([i, res.status, await res.text()], [i, 200, '']);
    }
    assert.equal(s.server.context.topics.size, 0);
    assert.equal((await publish(`${s.url}/fresh`, 'hi')).status, 200);
  });

  it('a stream\'s topics count while it is open and leave when it closes; a topic published to stays', async () => {
    const s = await server({ 'global-topic-limit': 3 });
    const stream = new LineStream(`${s.url}/one,two,kept/json`);
    assert.equal((await stream.nextJson()).event, 'open');
    assert.equal((await publish(`${s.url}/kept`, 'hi')).status, 200);
    assert.deepEqual([(await publish(`${s.url}/four`, 'x')).status, s.server.context.topics.size], [429, 3]);
    stream.close();
    await until(() => s.server.context.topics.size === 1, 'the topic held', { timeoutMs: 5000, everyMs: 1 });
    assert.equal((await publish(`${s.url}/four`, 'x')).status, 200);
  });
});

describe('subscribe — replay paid before it is loaded', () => {
  it('a visitor with little bandwidth left gets 42905 and the cache is asked for no more than is left', async () => {
    const s = await server({ 'visitor-attachment-daily-bandwidth-limit': '3000' });
    for (let i = 0; i < 10; i++) assert.equal((await publish(`${s.url}/paid`, `message ${i} ${'x'.repeat(150)}`)).status, 200);
    const cache = s.server.context.cache;
    const asked: number[] = [];
    const replay = cache.replay.bind(cache);
    cache.replay = (q: ReplayQuery) => {
      asked.push(q.maxBytes);
      return replay(q);
    };
    const whole = await fetch(`${s.url}/paid/json?poll=1`);
    assert.equal((await whole.text()).trimEnd().split('\n').length, 10, 'a replay that fits is sent whole');
    assert.equal(asked[0], 3000, 'the first poll may load what the day allows');
    asked.length = 0;
    assert.deepEqual(await refusal(fetch(`${s.url}/${Array(1500).fill('paid').join(',')}/json?poll=1`)), [429, 42905]);
    assert.equal(asked.length, 1, 'one topic, loaded once');
    assert.ok((asked[0] as number) < 1000, `asked for ${asked[0]} bytes: about 700 were left`);
  });
});
