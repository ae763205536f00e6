import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import bcrypt from 'bcryptjs';
import WebSocket from 'ws';
import type { Frame } from '../../src/dashboard/frame.js';
import { LineStream, SseStream, WsStream, publish, type Json } from '../support/clients.js';
import { ferretDbSkip, startFerretDb } from '../support/ferretdb.js';
import { startTestServer, tempDir, type TestServer } from '../support/server.js';

const basic = (user: string, password = 'secret'): string => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
/** ntfy's `?auth=`: the whole Authorization value in unpadded base64url (what a browser must use for a WebSocket). */
const authParam = (value: string): string => Buffer.from(value).toString('base64url');

/** A dashboard watcher: the frames as they come, and waiting for one that shows something. */
class Watcher {
  readonly stream: WsStream;
  readonly frames: Frame[] = [];

  constructor(url: string, { query = '', headers = {} }: { query?: string; headers?: Record<string, string> } = {}) {
    this.stream = new WsStream(`${url}/v1/dashboard/ws${query}`, headers);
  }

  /** Takes frames until `done` holds for the frames so far; returns the last. */
  async until(done: (frames: Frame[]) => boolean, timeoutMs = 8000): Promise<Frame> {
    const deadline = Date.now() + timeoutMs;
    do this.frames.push((await this.stream.next(Math.max(1, deadline - Date.now()))) as unknown as Frame);
    while (!done(this.frames));
    return this.frames.at(-1) as Frame;
  }

  close(): void {
    this.stream.close();
  }
}

/** What a refused upgrade answers: status and ntfy code. */
function refusal(url: string, headers: Record<string, string> = {}): Promise<[number, number]> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${url.replace('http', 'ws')}/v1/dashboard/ws`, { headers });
    socket.on('open', () => reject(new Error('the upgrade was accepted')));
    socket.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += String(chunk)));
      res.on('end', () => resolve([res.statusCode ?? 0, (JSON.parse(body) as Json).code as number]));
    });
  });
}

/** Whether the newest frame so far passes `check`. */
const latest =
  (check: (frame: Frame) => boolean) =>
  (frames: Frame[]): boolean => {
    const newest = frames.at(-1);
    return newest !== undefined && check(newest);
  };

/** A topic's messages and deliveries summed over frames (a burst may straddle two). */
function summed(frames: Frame[], topic: string): { messages: number; deliveries: number } {
  const rows = frames.flatMap((f) => f.busiest_topics.filter((t) => t.topic === topic));
  return { messages: rows.reduce((n, t) => n + t.messages, 0), deliveries: rows.reduce((n, t) => n + t.deliveries, 0) };
}

describe('dashboard feed — with access control', () => {
  let s: TestServer;
  before(async () => {
    const hash = bcrypt.hashSync('secret', 4);
    s = await startTestServer({
      'enable-dashboard': true,
      'auth-file': join(tempDir(), 'auth.db'),
      'auth-default-access': 'read-write',
      'auth-users': [`admin:${hash}:admin`, `phil:${hash}:user`],
    });
  });
  after(() => s.server.close());

  it('dashboard — anonymous and wrong credentials are 401 40101, a user who is no admin 403 40301', async () => {
    assert.deepEqual(await refusal(s.url), [401, 40101]);
    assert.deepEqual(await refusal(s.url, { Authorization: basic('admin', 'wrong') }), [401, 40101]);
    assert.deepEqual(await refusal(s.url, { Authorization: basic('phil') }), [403, 40301]);
  });

  it('dashboard — a plain GET answers what the upgrade would be refused with, else 400 40016 (what a page asks first)', async () => {
    const probe = async (authorization?: string): Promise<[number, unknown]> => {
      const res = await fetch(`${s.url}/v1/dashboard/ws`, { headers: authorization ? { Authorization: authorization } : {} });
      return [res.status, ((await res.json()) as Json).code];
    };
    assert.deepEqual(await probe(), [401, 40101]);
    assert.deepEqual(await probe(basic('phil')), [403, 40301]);
    assert.deepEqual(await probe(basic('admin')), [400, 40016]);
  });

  it('dashboard — frames count subscriptions by format, messages and deliveries per topic, the cache and scheduled messages', async () => {
    // given: an admin watching through ?auth= (as a browser), and 5 subscriptions
    const watcher = new Watcher(s.url, { query: `?auth=${authParam(basic('admin'))}` });
    const subscribers = [
      new LineStream(`${s.url}/alerts/json`),
      new SseStream(`${s.url}/alerts/sse`),
      new LineStream(`${s.url}/quiet/raw`),
      new WsStream(`${s.url}/alerts/ws`),
      new WsStream(`${s.url}/alerts,quiet/ws`),
    ];
    after(() => [watcher, ...subscribers].forEach((c) => c.close()));
    const open = await watcher.until(latest((f) => f.subscriptions.ws === 2 && f.subscriptions.json === 1 && f.subscriptions.sse === 1 && f.subscriptions.raw === 1));
    assert.deepEqual(open.subscriptions, { json: 1, sse: 1, raw: 1, ws: 2 });
    const counted = watcher.frames.length;

    // when: 3 messages to alerts (4 subscribers), 1 to quiet (2), 1 scheduled for later
    for (const body of ['one', 'two', 'three']) assert.equal((await publish(`${s.url}/alerts`, body)).status, 200);
    assert.equal((await publish(`${s.url}/quiet`, 'hush')).status, 200);
    assert.equal((await publish(`${s.url}/later`, 'soon', { Delay: '1h' })).status, 200);

    // then
    const last = await watcher.until((frames) => summed(frames.slice(counted), 'quiet').messages === 1 && summed(frames.slice(counted), 'alerts').messages === 3 && frames.at(-1)?.scheduled === 1);
    const frames = watcher.frames.slice(counted);
    assert.deepEqual(summed(frames, 'alerts'), { messages: 3, deliveries: 12 });
    assert.deepEqual(summed(frames, 'quiet'), { messages: 1, deliveries: 2 });
    assert.equal(frames.reduce((n, f) => n + f.messages_per_second, 0), 4, 'the scheduled message is not live yet');
    assert.equal(frames.reduce((n, f) => n + f.deliveries_per_second, 0), 14);
    assert.ok(frames.some((f) => f.busiest_topics[0]?.topic === 'alerts'));
    assert.equal(last.cache.rows, 5);
    assert.ok(last.cache.bytes > 0);
    assert.equal(last.topics, 3);
    assert.equal(last.visitors, 1, 'every client is 127.0.0.1; a user without a tier counts as its address');
    assert.equal(last.interval, 1);
    assert.ok(Math.abs(last.time - Date.now() / 1000) < 5);
    assert.deepEqual(last.limits_hit, []);
    assert.equal(last.slow_subscribers_dropped, 0);
  });

  it('dashboard — an admin\'s Authorization header works too, and subscriptions that close leave the count', async () => {
    const watcher = new Watcher(s.url, { headers: { Authorization: basic('admin') } });
    after(() => watcher.close());
    const sub = new LineStream(`${s.url}/gone/json`);
    await watcher.until(latest((f) => f.subscriptions.json === 1));
    sub.close();
    const last = await watcher.until(latest((f) => f.subscriptions.json === 0));
    assert.equal(last.subscriptions.json, 0);
  });
});

describe('dashboard feed — without access control', () => {
  let s: TestServer;
  before(async () => {
    // 5 requests at once, then one per hour: the watcher's upgrade and 4 publishes pass.
    s = await startTestServer({ 'enable-dashboard': true, 'visitor-request-limit-burst': 5, 'visitor-request-limit-replenish': '1h' });
  });
  after(() => s.server.close());

  it('dashboard — anyone may watch; topic names are withheld; refusals by the request limit are counted by code', async () => {
    const watcher = new Watcher(s.url);
    after(() => watcher.close());
    await watcher.until((frames) => frames.length > 0);
    const counted = watcher.frames.length;
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await publish(`${s.url}/secret-name`, `m${i}`)).status);
    assert.deepEqual(statuses, [200, 200, 200, 200, 429, 429]);
    const last = await watcher.until((frames) => summed(frames.slice(counted), '').messages === 4 && frames.at(-1)?.limits_hit.length === 1);
    assert.deepEqual(last.limits_hit, [{ code: 42901, error: 'limit reached: too many requests', count: 2 }]);
    assert.ok(watcher.frames.every((f) => f.busiest_topics.every((t) => t.topic === '')));
  });

  it('dashboard — off unless enable-dashboard: the path is 404 40401', async () => {
    const off = await startTestServer();
    after(() => off.server.close());
    assert.deepEqual(await refusal(off.url), [404, 40401]);
  });
});

describe('dashboard feed — the limits of ntfy 2.23 and 2.28', () => {
  it('dashboard — limits hit shows new-topic (42911) and title-size (40057) refusals by code', async () => {
    const s = await startTestServer({ 'enable-dashboard': true, 'visitor-topic-creation-limit-burst': 1, 'visitor-topic-creation-limit-replenish': '1h' });
    after(() => s.server.close());
    const watcher = new Watcher(s.url);
    after(() => watcher.close());
    await watcher.until((frames) => frames.length > 0);
    const statuses = [(await publish(`${s.url}/first`, 'm')).status, (await publish(`${s.url}/second`, 'm')).status, (await publish(`${s.url}/first`, 'm', { Title: 'x'.repeat(1025) })).status];
    assert.deepEqual(statuses, [200, 429, 400]);
    const last = await watcher.until((frames) => frames.at(-1)?.limits_hit.length === 2);
    assert.deepEqual(last.limits_hit, [
      { code: 40057, error: 'invalid request: title too large', count: 1 },
      { code: 42911, error: 'limit reached: too many new topics, please slow down', count: 1 },
    ]);
  });
});

describe('dashboard feed — two nodes on one MongoDB', { skip: ferretDbSkip(), timeout: 60_000 }, () => {
  it('dashboard — a node counts every node\'s messages, its own deliveries, and the shared cache and scheduled messages', async () => {
    // given: nodes a and b on one database; an admin watches b, where one subscriber listens
    const ferret = await startFerretDb();
    const hash = bcrypt.hashSync('secret', 4);
    const settings = { 'database-url': ferret.url.replace('/?', `/${ferret.databaseName('dashboard')}?`), 'enable-dashboard': true, 'auth-users': [`admin:${hash}:admin`] };
    const [a, b] = [await startTestServer(settings), await startTestServer(settings)];
    after(async () => {
      await Promise.all([a.server.close(), b.server.close()]);
      await ferret.stop();
    });
    const watcher = new Watcher(b.url, { query: `?auth=${authParam(basic('admin'))}` });
    const subscriber = new WsStream(`${b.url}/shared/ws`);
    after(() => [watcher, subscriber].forEach((c) => c.close()));
    await watcher.until(latest((f) => f.subscriptions.ws === 1));
    const counted = watcher.frames.length;

    // when: two messages and a scheduled one, published on a
    for (const body of ['one', 'two']) assert.equal((await publish(`${a.url}/shared`, body)).status, 200);
    assert.equal((await publish(`${a.url}/shared`, 'later', { Delay: '1h' })).status, 200);

    // then
    const last = await watcher.until((frames) => summed(frames.slice(counted), 'shared').messages === 2 && frames.at(-1)?.scheduled === 1 && frames.at(-1)?.cache.rows === 3);
    assert.deepEqual(summed(watcher.frames.slice(counted), 'shared'), { messages: 2, deliveries: 2 });
    assert.ok(last.cache.bytes > 0);
    assert.equal(last.topics, 1, 'b knows the topic its subscriber opened');
  });
});
