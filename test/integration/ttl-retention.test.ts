import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { publish, type Json } from '../support/clients.js';
import { LogCapture } from '../support/log.js';
import { startTestServer, type TestServer } from '../support/server.js';

const hour = 3600;
const log = new LogCapture();
let s: TestServer;
before(async () => {
  s = await startTestServer({
    'cache-duration': '12h',
    'manager-interval': '1s',
    'topic-retention': [
      { topic: 'alerts*', 'cache-duration': '720h', 'max-messages': 3 },
      { topic: 'alerts-short', 'cache-duration': '1h' },
      { topic: 'live*', 'cache-duration': 0 },
    ],
  }, log.logger);
});
after(() => s.server.close());

async function poll(topic: string): Promise<Json[]> {
  const text = await (await fetch(`${s.url}/${topic}/json?poll=1`)).text();
  return text === '' ? [] : text.trimEnd().split('\n').map((line) => JSON.parse(line) as Json);
}

const lifetime = (m: Json): number => (m.expires as number) - (m.time as number);

describe('ttl — per-message expiry', () => {
  it('X-TTL, TTL, ?ttl= and the JSON field each set expires to that long after the message\'s time', async () => {
    const viaHeader = (await publish(`${s.url}/ttl-a`, 'one', { 'X-TTL': '30m' })).json;
    const viaShort = (await publish(`${s.url}/ttl-a`, 'two', { TTL: '2 hours' })).json;
    const viaQuery = (await publish(`${s.url}/ttl-a?ttl=90s`, 'three')).json;
    const viaJson = (await publish(s.url, JSON.stringify({ topic: 'ttl-a', message: 'four', ttl: '1h30m' }))).json;
    assert.deepEqual([viaHeader, viaShort, viaQuery, viaJson].map(lifetime), [1800, 2 * hour, 90, 5400]);
    assert.deepEqual((await poll('ttl-a')).map(lifetime), [1800, 2 * hour, 90, 5400], 'as cached');
  });

  it('a TTL never keeps a message past its topic\'s retention', async () => {
    assert.equal(lifetime((await publish(`${s.url}/ttl-b`, 'x', { 'X-TTL': '30d' })).json), 12 * hour, 'cache-duration');
    assert.equal(lifetime((await publish(`${s.url}/alerts-short`, 'x', { 'X-TTL': '3h' })).json), hour, 'the topic\'s entry');
    assert.equal(lifetime((await publish(`${s.url}/alerts-long`, 'x', { 'X-TTL': '100h' })).json), 100 * hour, 'longer than cache-duration, within the entry');
  });

  it('a scheduled message expires that long after its delivery time', async () => {
    const { json } = await publish(`${s.url}/ttl-c`, 'later', { 'X-TTL': '10m', 'X-Delay': '1h' });
    assert.equal(lifetime(json), 600);
  });

  it('bad TTLs are 400 with code 40094, and the server goes on', async () => {
    for (const ttl of ['soon', '0', '-5m', '500ms', '12', '1h x', '3 weeks']) {
      const { status, json } = await publish(`${s.url}/ttl-bad`, 'x', { 'X-TTL': ttl });
      assert.deepEqual([status, json.code, json.http], [400, 40094, 400], ttl);
      assert.match(json.error as string, /TTL invalid/);
    }
    const viaJson = await publish(s.url, JSON.stringify({ topic: 'ttl-bad', ttl: 'never' }));
    assert.equal(viaJson.json.code, 40094);
    const notString = await publish(s.url, JSON.stringify({ topic: 'ttl-bad', ttl: 60 }));
    assert.equal(notString.json.code, 40024, 'the JSON field is a string, as delay is');
    assert.deepEqual(await poll('ttl-bad'), []);
    assert.equal((await publish(`${s.url}/ttl-bad`, 'fine')).status, 200);
  });
});

describe('topic-retention — per-topic cache duration and message count', () => {
  it('the most specific entry sets expires; a topic no entry matches takes cache-duration', async () => {
    assert.equal(lifetime((await publish(`${s.url}/alerts-db`, 'x')).json), 720 * hour);
    assert.equal(lifetime((await publish(`${s.url}/alerts-short`, 'x')).json), hour);
    assert.equal(lifetime((await publish(`${s.url}/other`, 'x')).json), 12 * hour);
  });

  it('an entry with cache-duration 0 caches none of its topics\' messages, as cache-duration 0 does', async () => {
    const { json } = await publish(`${s.url}/live-feed`, 'x');
    assert.equal(json.expires, undefined);
    assert.deepEqual(await poll('live-feed'), []);
  });

  it('max-messages: the housekeeping keeps a topic\'s newest, dropping the oldest first', async () => {
    const sent: string[] = [];
    for (let i = 0; i < 6; i++) sent.push((await publish(`${s.url}/alerts-many`, `m${i}`)).json.id as string);
    const from = log.records.length;
    await log.after(from, (r) => r.msg === 'shared housekeeping' && (r.trimmed as number) > 0, 10_000);
    assert.deepEqual((await poll('alerts-many')).map((m) => m.id), sent.slice(3));
    for (let i = 0; i < 5; i++) await publish(`${s.url}/unlimited`, `u${i}`);
    await log.after(log.records.length, (r) => r.msg === 'shared housekeeping', 10_000);
    assert.equal((await poll('unlimited')).length, 5, 'topics without max-messages keep all');
  });
});

describe('topic-retention — with cache-duration 0', () => {
  it('only the topics an entry gives a cache duration are cached, and TTLs apply to them', async () => {
    const t = await startTestServer({ 'cache-duration': '0', 'topic-retention': [{ topic: 'kept*', 'cache-duration': '1h' }] });
    try {
      const kept = (await publish(`${t.url}/kept-1`, 'x', { 'X-TTL': '10m' })).json;
      const gone = (await publish(`${t.url}/other`, 'x', { 'X-TTL': '10m' })).json;
      assert.deepEqual([lifetime(kept), gone.expires], [600, undefined]);
      const polled = await (await fetch(`${t.url}/kept-1,other/json?poll=1`)).text();
      assert.deepEqual(polled.trimEnd().split('\n').map((line) => (JSON.parse(line) as Json).id), [kept.id]);
    } finally {
      await t.server.close();
    }
  });
});
