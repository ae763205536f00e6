import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import WebSocket from 'ws';
import { LineStream, WsStream, type Json } from '../support/clients.js';
import { LogCapture } from '../support/log.js';
import { startTestServer, tempDir, type TestServer } from '../support/server.js';

/** Visitor limits with small configured values, against a real server (every request comes from 127.0.0.1). */

async function server(settings: Record<string, unknown>, log?: LogCapture): Promise<TestServer> {
  const s = await startTestServer(settings, log?.logger);
  after(() => s.server.close());
  return s;
}

async function post(s: TestServer, topic: string, headers: Record<string, string> = {}): Promise<[number, number | undefined]> {
  const res = await fetch(`${s.url}/${topic}`, { method: 'POST', body: 'x', headers });
  const json = (await res.json()) as Json;
  return [res.status, res.status === 200 ? undefined : (json.code as number)];
}

type Format = 'json' | 'sse' | 'raw' | 'ws';

async function refusedCode(res: Promise<Response>): Promise<[number, unknown]> {
  const r = await res;
  return [r.status, ((await r.json()) as Json).code];
}

/** The status of a WebSocket upgrade: 101 when it opened, else the refusal's. */
function upgradeStatus(url: string): Promise<number> {
  return new Promise<number>((resolve) => {
    const socket = new WebSocket(url.replace('http', 'ws'));
    socket.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    socket.on('open', () => {
      socket.close();
      resolve(101);
    });
  });
}

describe('visitor limits', () => {
  it('the request bucket empties after the burst (42901) and refills one request per interval', async () => {
    const s = await server({ 'visitor-request-limit-burst': 3, 'visitor-request-limit-replenish': '500ms' });
    const codes = [];
    for (let i = 0; i < 4; i++) codes.push(await post(s, 'bucket'));
    assert.deepEqual(codes, [[200, undefined], [200, undefined], [200, undefined], [429, 42901]]);
    const res = await fetch(`${s.url}/bucket/json?poll=1`);
    assert.deepEqual([res.status, ((await res.json()) as Json).code], [429, 42901], 'subscribing draws on the same bucket');
    await sleep(550);
    assert.deepEqual(await post(s, 'bucket'), [200, undefined]);
    assert.deepEqual(await post(s, 'bucket'), [429, 42901]);
    assert.equal((await fetch(`${s.url}/v1/health`)).status, 200, 'health is not limited');
  });

  it('exempt hosts are never limited', async () => {
    const s = await server({ 'visitor-request-limit-burst': 1, 'visitor-message-daily-limit': 1, 'visitor-request-limit-exempt-hosts': ['127.0.0.0/8'] });
    for (let i = 0; i < 10; i++) assert.deepEqual(await post(s, 'exempt'), [200, undefined]);
  });

  it('X-Forwarded-For decides the visitor only behind a proxy, past trusted proxies', async () => {
    const behind = await server({ 'visitor-request-limit-burst': 1, 'behind-proxy': true, 'proxy-trusted-hosts': ['10.0.0.0/8'] });
    assert.deepEqual(await post(behind, 'fwd', { 'X-Forwarded-For': '198.51.100.1' }), [200, undefined]);
    assert.deepEqual(await post(behind, 'fwd', { 'X-Forwarded-For': '198.51.100.2, 10.0.0.9' }), [200, undefined], 'another client, behind a trusted proxy');
    assert.deepEqual(await post(behind, 'fwd', { 'X-Forwarded-For': '198.51.100.1' }), [429, 42901], 'the first client again');
    const direct = await server({ 'visitor-request-limit-burst': 1 });
    assert.deepEqual(await post(direct, 'fwd', { 'X-Forwarded-For': '198.51.100.1' }), [200, undefined]);
    assert.deepEqual(await post(direct, 'fwd', { 'X-Forwarded-For': '198.51.100.2' }), [429, 42901], 'not behind a proxy: the header is ignored');
  });

  it('a visitor holds at most visitor-subscription-limit subscriptions at once (42903), over any format, a poll too', async () => {
    const s = await server({ 'visitor-subscription-limit': 2 });
    const json = new LineStream(`${s.url}/subs/json`);
    await json.next();
    const ws = new WsStream(`${s.url}/subs/ws`);
    await ws.next();
    assert.deepEqual(await refusedCode(fetch(`${s.url}/subs/sse`)), [429, 42903]);
    assert.deepEqual(await refusedCode(fetch(`${s.url}/subs/json?poll=1`)), [429, 42903], 'a poll counts while it runs');
    assert.equal(await upgradeStatus(`${s.url}/subs/ws`), 429);
    assert.equal(await upgradeStatus(`${s.url}/subs/ws?poll=1`), 429);
    json.close();
    ws.close();
  });

  it('a request failing two checks gets the first in its route\'s order: a stream takes its slot (42903) before reading since=, a WebSocket reads since= (40008) first', async () => {
    const s = await server({ 'visitor-subscription-limit': 1 });
    const held = new LineStream(`${s.url}/order/json`);
    await held.next();
    assert.deepEqual(await refusedCode(fetch(`${s.url}/order/json?since=yesterday-ish`)), [429, 42903]);
    assert.equal(await upgradeStatus(`${s.url}/order/ws?since=yesterday-ish`), 400);
    assert.equal(await upgradeStatus(`${s.url}/order/ws`), 429);
    held.close();
  });

  it('a closed json, sse, raw or ws stream gives its slot back as the server sees it close', async () => {
    const log = new LogCapture('debug');
    const s = await server({ 'visitor-subscription-limit': 2 }, log);
    const open = async (format: Format): Promise<() => void> => {
      if (format === 'ws') {
        const ws = new WsStream(`${s.url}/subs/ws`);
        await ws.next();
        return () => ws.close();
      }
      const stream = new LineStream(`${s.url}/subs/${format}`);
      await stream.next();
      return () => stream.close();
    };
    const held = new Map<Format, () => void>([['json', await open('json')], ['ws', await open('ws')]]);
    // Each format is closed once and opened in the freed slot; the next one is still refused.
    for (const [closing, opening] of [['json', 'sse'], ['ws', 'raw'], ['sse', 'ws'], ['raw', 'json']] as [Format, Format][]) {
      const from = log.records.length;
      held.get(closing)?.();
      held.delete(closing);
      const closed = await log.after(from, (r) => r.msg === 'subscription closed' && r.format === closing);
      assert.equal(closed.subscriptions, 1, `${closing}: released when its close was seen`);
      held.set(opening, await open(opening));
      assert.deepEqual(await refusedCode(fetch(`${s.url}/subs/json?poll=1`)), [429, 42903], `after ${opening} opened`);
    }
    const from = log.records.length;
    for (const close of held.values()) close();
    await log.until(() => log.records.slice(from).some((r) => r.msg === 'subscription closed' && r.subscriptions === 0));
    assert.equal((await fetch(`${s.url}/subs/json?poll=1`)).status, 200, 'all slots free again: a poll runs');
  });

  it('the daily message limit answers 42908 and GET /v1/account counts the messages', async () => {
    const s = await server({ 'visitor-message-daily-limit': 2, 'auth-file': join(tempDir(), 'auth.db') });
    assert.deepEqual([await post(s, 'daily'), await post(s, 'daily'), await post(s, 'daily')], [[200, undefined], [200, undefined], [429, 42908]]);
    const account = (await (await fetch(`${s.url}/v1/account`)).json()) as Json;
    assert.deepEqual([(account.stats as Json).messages, (account.stats as Json).messages_remaining], [2, 0]);
  });

  it('visitor-subscriber-rate-limiting bills UnifiedPush publishes to the topic\'s subscriber', async () => {
    const s = await server({ 'visitor-subscriber-rate-limiting': true, 'visitor-request-limit-burst': 3, 'behind-proxy': true });
    const from = (address: string): Record<string, string> => ({ 'X-Forwarded-For': address });
    const topic = 'upAbCdEf123456';
    assert.deepEqual(await post(s, `${topic}?up=1`, from('198.51.100.2')), [507, 50701], 'no subscriber to bill yet');
    const subscriber = new LineStream(`${s.url}/${topic}/json`, { headers: from('198.51.100.1') });
    await subscriber.next();
    const pushes = [];
    for (let i = 0; i < 3; i++) pushes.push(await post(s, `${topic}?up=1`, from('198.51.100.2')));
    assert.deepEqual(pushes, [[200, undefined], [200, undefined], [429, 42901]], 'the subscriber had 2 of its 3 requests left');
    const own = [];
    for (let i = 0; i < 3; i++) own.push(await post(s, 'ordinary', from('198.51.100.2')));
    assert.deepEqual(own, [[200, undefined], [200, undefined], [429, 42901]], 'the publisher paid only for its first attempt, before there was a subscriber');
    subscriber.close();
  });

  it('a bad network in the exempt hosts stops the start, naming it', async () => {
    await assert.rejects(startTestServer({ 'visitor-request-limit-exempt-hosts': ['intranet'] }), /invalid visitor-request-limit-exempt-hosts entry "intranet"/);
  });
});
