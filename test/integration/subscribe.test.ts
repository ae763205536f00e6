import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import WebSocket from 'ws';
import { LineStream, publish, SseStream, WsStream, type Json } from '../support/clients.js';
import { LogCapture } from '../support/log.js';
import { Scrape } from '../support/prometheus.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { interruptLiveStreams } from '../../src/transports/subscribe/lost-range.js';

let s: TestServer;
before(async () => {
  s = await startTestServer({ 'keepalive-interval': '1s' });
});
after(() => s.server.close());

const lines = (text: string): Json[] => (text === '' ? [] : text.trimEnd().split('\n').map((l) => JSON.parse(l) as Json));
const pollJson = async (path: string): Promise<Json[]> => lines(await (await fetch(`${s.url}${path}`)).text());

describe('subscribe — stream formats', () => {
  it('json: content type, open event, then each message as one line', async () => {
    const stream = new LineStream(`${s.url}/fmt-json/json`);
    const res = await stream.response;
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/x-ndjson; charset=utf-8');
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    const open = await stream.nextJson();
    assert.equal(open.event, 'open');
    assert.equal(open.topic, 'fmt-json');
    assert.equal(open.message, undefined);
    const { json: sent } = await publish(`${s.url}/fmt-json`, 'hello', { Title: 'Hi' });
    const got = await stream.nextJson();
    assert.deepEqual(got, sent);
    stream.close();
  });

  it('sse: open and keepalive carry event:, messages only id: and data:', async () => {
    const stream = new SseStream(`${s.url}/fmt-sse/sse`);
    const res = await stream.response;
    assert.equal(res.headers.get('content-type'), 'text/event-stream; charset=utf-8');
    const open = await stream.next();
    assert.equal(open.event, 'open');
    assert.equal((JSON.parse(open.data) as Json).event, 'open');
    const { json: sent } = await publish(`${s.url}/fmt-sse`, 'hello sse');
    const msg = await stream.next();
    assert.equal(msg.event, 'message');
    assert.deepEqual(JSON.parse(msg.data), sent);
    stream.close();
  });

  it('sse: the exact framing on the wire', async () => {
    const raw = new LineStream(`${s.url}/fmt-sse2/sse`);
    const openLine = await raw.next();
    assert.match(openLine, /^event: open$/);
    assert.match(await raw.next(), /^data: \{"id":"[a-zA-Z0-9]{12}","time":\d+,"event":"open","topic":"fmt-sse2"\}$/);
    assert.equal(await raw.next(), '');
    const { json } = await publish(`${s.url}/fmt-sse2`, 'x');
    assert.equal(await raw.next(), `id: ${json.id as string}`);
    assert.equal(await raw.next(), `data: ${JSON.stringify(json)}`);
    assert.equal(await raw.next(), '');
    raw.close();
  });

  it('raw: only bodies on one line; open is an empty line', async () => {
    const stream = new LineStream(`${s.url}/fmt-raw/raw`);
    const res = await stream.response;
    assert.equal(res.headers.get('content-type'), 'text/plain; charset=utf-8');
    assert.equal(await stream.next(), '');
    await publish(`${s.url}/fmt-raw`, 'two\nlines', { Title: 'ignored', Priority: '5' });
    assert.equal(await stream.next(), 'two lines');
    stream.close();
  });

  it('ws: frames are message JSON objects', async () => {
    const ws = new WsStream(`${s.url}/fmt-ws/ws`);
    const open = await ws.next();
    assert.equal(open.event, 'open');
    assert.equal(open.topic, 'fmt-ws');
    const { json: sent } = await publish(`${s.url}/fmt-ws`, 'over websocket');
    assert.deepEqual(await ws.next(), sent);
    ws.close();
  });

  it('ws with a filter receives only matching messages', async () => {
    const ws = new WsStream(`${s.url}/ws-filter/ws?priority=high,max`);
    assert.equal((await ws.next()).event, 'open');
    await publish(`${s.url}/ws-filter`, 'low one', { Priority: '2' });
    await publish(`${s.url}/ws-filter`, 'high one', { Priority: '4' });
    assert.equal((await ws.next()).message, 'high one');
    ws.close();
  });

  it('keepalive events arrive at keepalive-interval', async () => {
    const stream = new LineStream(`${s.url}/ka/json`);
    assert.equal((await stream.nextJson()).event, 'open');
    const ka = await stream.nextJson(3000);
    assert.equal(ka.event, 'keepalive');
    assert.equal(ka.topic, 'ka');
    stream.close();
  });

  it('ws: an empty ping frame every keepalive-interval, as ntfy sends (no keepalive event); answered pongs keep it open', async () => {
    const socket = new WebSocket(`${s.url.replace('http', 'ws')}/ka-ws/ws`);
    const opened = performance.now();
    const pings: number[] = [];
    const frames: string[] = [];
    socket.on('message', (data: Buffer) => frames.push(JSON.parse(data.toString()).event as string));
    await new Promise<void>((resolve) =>
      socket.on('ping', (payload: Buffer) => {
        assert.equal(payload.length, 0);
        if (pings.push(performance.now()) === 3) resolve();
      }),
    );
    socket.close();
    // 1 s apart, from the upgrade on; a ping may go out up to the keepalive window (5%) early.
    const gaps = pings.map((at, i) => at - (i === 0 ? opened : (pings[i - 1] as number)));
    for (const gap of gaps) assert.ok(gap >= 940 && gap <= 1300, `gaps ${gaps.map(Math.round).join(', ')} ms`);
    assert.deepEqual(frames, ['open'], 'no keepalive event on a WebSocket');
  });
});

describe('subscribe — topics and replay', () => {
  it('several topics: open lists them all and messages of each arrive', async () => {
    const stream = new LineStream(`${s.url}/multi-a,multi-b/json`);
    const open = await stream.nextJson();
    assert.equal(open.topic, 'multi-a,multi-b');
    await publish(`${s.url}/multi-a`, 'from a');
    await publish(`${s.url}/multi-b`, 'from b');
    assert.equal((await stream.nextJson()).message, 'from a');
    assert.equal((await stream.nextJson()).message, 'from b');
    stream.close();
  });

  it('poll=1 returns the cache and closes; since=all/latest/none/id/time/duration', async () => {
    const sent: Json[] = [];
    for (const text of ['one', 'two', 'three']) sent.push((await publish(`${s.url}/replay`, text)).json);
    assert.deepEqual((await pollJson('/replay/json?poll=1')).map((m) => m.message), ['one', 'two', 'three']);
    assert.deepEqual((await pollJson('/replay/json?poll=1&since=all')).map((m) => m.message), ['one', 'two', 'three']);
    assert.deepEqual((await pollJson('/replay/json?poll=1&since=latest')).map((m) => m.message), ['three']);
    assert.deepEqual(await pollJson('/replay/json?poll=1&since=none'), []);
    assert.deepEqual((await pollJson(`/replay/json?poll=1&since=${sent[0]?.id}`)).map((m) => m.message), ['two', 'three']);
    assert.deepEqual((await pollJson(`/replay/json?poll=1&since=${(sent[0]?.time as number) + 3600}`)).map((m) => m.message), []);
    assert.deepEqual((await pollJson('/replay/json?poll=1&since=10m')).map((m) => m.message), ['one', 'two', 'three']);
    assert.deepEqual((await pollJson('/replay/json?po=1&si=latest')).map((m) => m.message), ['three']);
  });

  it('since= on a live stream replays, then continues live', async () => {
    await publish(`${s.url}/since-live`, 'old');
    const stream = new LineStream(`${s.url}/since-live/json?since=all`);
    assert.equal((await stream.nextJson()).event, 'open');
    assert.equal((await stream.nextJson()).message, 'old');
    await publish(`${s.url}/since-live`, 'new');
    assert.equal((await stream.nextJson()).message, 'new');
    stream.close();
  });

  it('filters: id, message, title, priority (OR), tags (AND)', async () => {
    const a = (await publish(`${s.url}/filt`, 'alpha', { Title: 'T1', Priority: '1', Tags: 'x,y' })).json;
    await publish(`${s.url}/filt`, 'beta', { Title: 'T2', Priority: '5', Tags: 'x' });
    await publish(`${s.url}/filt`, 'gamma', { Title: 'T2' });
    const msgs = async (q: string): Promise<unknown[]> => (await pollJson(`/filt/json?poll=1&${q}`)).map((m) => m.message);
    assert.deepEqual(await msgs(`id=${a.id}`), ['alpha']);
    assert.deepEqual(await msgs('message=beta'), ['beta']);
    assert.deepEqual(await msgs('title=T2'), ['beta', 'gamma']);
    assert.deepEqual(await msgs('priority=1,5'), ['alpha', 'beta']);
    assert.deepEqual(await msgs('priority=default'), ['gamma']);
    assert.deepEqual(await msgs('tags=x'), ['alpha', 'beta']);
    assert.deepEqual(await msgs('tags=x,y'), ['alpha']);
    const headerFiltered = lines(await (await fetch(`${s.url}/filt/json?poll=1`, { headers: { 'X-Title': 'T1' } })).text());
    assert.deepEqual(headerFiltered.map((m) => m.message), ['alpha']);
  });

  it('replay across topics is ordered by time, each topic in publish order', async () => {
    for (let i = 0; i < 5; i++) {
      await publish(`${s.url}/ord-a`, `a${i}`);
      await publish(`${s.url}/ord-b`, `b${i}`);
    }
    const got = (await pollJson('/ord-a,ord-b/json?poll=1')).map((m) => String(m.message));
    assert.deepEqual(got.filter((m) => m.startsWith('a')), ['a0', 'a1', 'a2', 'a3', 'a4']);
    assert.deepEqual(got.filter((m) => m.startsWith('b')), ['b0', 'b1', 'b2', 'b3', 'b4']);
  });

  it('poll works over sse, raw and ws', async () => {
    await publish(`${s.url}/poll-fmt`, 'cached one');
    const sse = await (await fetch(`${s.url}/poll-fmt/sse?poll=1`)).text();
    assert.match(sse, /^id: \w{12}\ndata: \{.*"message":"cached one".*\}\n\n$/);
    assert.equal(await (await fetch(`${s.url}/poll-fmt/raw?poll=1`)).text(), 'cached one\n');
    const ws = new WsStream(`${s.url}/poll-fmt/ws?poll=1`);
    assert.equal((await ws.next()).message, 'cached one');
    assert.equal(await ws.waitClosed(), 1000);
  });

  it('a scheduled message reaches live subscribers when due, then replays like any message', async () => {
    const stream = new LineStream(`${s.url}/due/json`);
    assert.equal((await stream.nextJson()).event, 'open');
    const at = Math.floor(Date.now() / 1000) + 11;
    const { json } = await publish(`${s.url}/due`, 'on time', { At: String(at) });
    assert.equal(json.time, at);
    let got = await stream.nextJson(15_000);
    while (got.event === 'keepalive') got = await stream.nextJson(15_000);
    assert.equal(got.id, json.id);
    assert.ok(Date.now() / 1000 >= at && Date.now() / 1000 < at + 2.5, 'delivered within a second or two of its time');
    assert.deepEqual((await pollJson('/due/json?poll=1')).map((m) => m.id), [json.id]);
    stream.close();
  });

  it('Cache: no messages reach live subscribers only', async () => {
    const stream = new LineStream(`${s.url}/live-only/json`);
    assert.equal((await stream.nextJson()).event, 'open');
    await publish(`${s.url}/live-only`, 'ephemeral', { Cache: 'no' });
    assert.equal((await stream.nextJson()).message, 'ephemeral');
    assert.deepEqual(await pollJson('/live-only/json?poll=1'), []);
    stream.close();
  });

  it('a replay over 10 MB keeps the newest messages and says X-Messages-Truncated: 1', async () => {
    const body = 'x'.repeat(4000);
    const total = 2700; // ~10.9 MB of JSON
    for (let i = 0; i < total; i += 100) {
      await Promise.all(Array.from({ length: 100 }, (_, j) => publish(`${s.url}/big`, `${i + j} ${body}`)));
    }
    const res = await fetch(`${s.url}/big/json?poll=1`);
    assert.equal(res.headers.get('x-messages-truncated'), '1');
    const got = lines(await res.text());
    const bytes = got.reduce((sum, m) => sum + JSON.stringify(m).length, 0);
    assert.ok(bytes <= 10 * 1024 * 1024, `replayed ${bytes} bytes`);
    assert.ok(got.length > 2500 && got.length < total, `replayed ${got.length} messages`);
    const small = await fetch(`${s.url}/replay/json?poll=1`);
    assert.equal(small.headers.get('x-messages-truncated'), null);
  });
});

describe('subscribe — a range the live feed lost', () => {
  let lossy: TestServer;
  const log = new LogCapture('warn');
  before(async () => {
    lossy = await startTestServer({ 'enable-metrics': true }, log.logger);
  });
  after(() => lossy.server.close());

  it('ends every live stream: HTTP streams end cleanly, WebSockets drop (1006); one warning with the count; reconnecting works', async () => {
    // given: unfiltered and filtered streams of every format, on several topics
    const url = lossy.url;
    const json = new LineStream(`${url}/lost-a/json`);
    const filtered = new LineStream(`${url}/lost-a/json?priority=5`);
    const sse = new SseStream(`${url}/lost-a,lost-b/sse`);
    const raw = new LineStream(`${url}/lost-b/raw`);
    const ws = new WsStream(`${url}/lost-a/ws`);
    const wsFiltered = new WsStream(`${url}/lost-b/ws?title=x`);
    for (const stream of [json, filtered]) assert.equal((await stream.nextJson()).event, 'open');
    assert.equal((await sse.next()).event, 'open');
    assert.equal(await raw.next(), '');
    for (const socket of [ws, wsFiltered]) assert.equal((await socket.next()).event, 'open');
    const { json: before } = await publish(`${url}/lost-a`, 'before');
    assert.equal((await json.nextJson()).id, before.id);
    assert.equal((await ws.next()).id, before.id);

    // when: the feed reports a lost range (as MongoLiveFeed.lost$ does)
    const closed = interruptLiveStreams(lossy.server.context, { from: 7, to: 9 });

    // then: every stream ended, the way its clients reconnect on
    assert.equal(closed, 6);
    for (const stream of [json, filtered, raw, sse]) await stream.end();
    assert.deepEqual([json.failure, filtered.failure, raw.failure, sse.failure], [undefined, undefined, undefined, undefined], 'ended cleanly (a final chunk)');
    assert.deepEqual([await ws.waitClosed(), await wsFiltered.waitClosed()], [1006, 1006]);
    assert.equal(lossy.server.context.connections.size, 0);
    const warnings = log.find((r) => typeof r.msg === 'string' && r.msg.startsWith('live feed: positions 7-9'));
    assert.deepEqual(warnings.map((r) => [r.level, r.from, r.to, r.closed]), [[40, 7, 9, 6]]);
    const scrape = await Scrape.of(`${url}/metrics`);
    assert.deepEqual([scrape.value('tocsin_lost_ranges_total'), scrape.value('tocsin_lost_positions_total')], [1, 3]);

    // and: a reconnect with since= gets what it missed, then live messages
    const { json: missed } = await publish(`${url}/lost-a`, 'missed');
    const again = new LineStream(`${url}/lost-a/json?since=${before.id as string}`);
    try {
      assert.equal((await again.nextJson()).event, 'open');
      assert.equal((await again.nextJson()).id, missed.id);
      const { json: live } = await publish(`${url}/lost-a`, 'live');
      assert.equal((await again.nextJson()).id, live.id);
    } finally {
      again.close();
    }
  });

  it('a range of one log (`covers`) ends only the streams of its topics, a stream of several topics when any of them; the others go on', async () => {
    // given: streams of lost-c, of lost-d, and of both, unfiltered and filtered
    const url = lossy.url;
    const onC = new LineStream(`${url}/lost-c/json`);
    const onD = new LineStream(`${url}/lost-d/json`);
    const both = new SseStream(`${url}/lost-c,lost-d/sse`);
    const bothFiltered = new LineStream(`${url}/lost-d,lost-c/json?priority=3`);
    const wsOnC = new WsStream(`${url}/lost-c/ws?priority=3`);
    const wsOnD = new WsStream(`${url}/lost-d/ws`);
    for (const stream of [onC, onD, bothFiltered]) assert.equal((await stream.nextJson()).event, 'open');
    assert.equal((await both.next()).event, 'open');
    for (const socket of [wsOnC, wsOnD]) assert.equal((await socket.next()).event, 'open');

    // when: the feed lost a range of the log holding lost-d only
    const closed = interruptLiveStreams(lossy.server.context, { from: 20, to: 21, log: 1, covers: (topic) => topic === 'lost-d' });

    // then: the streams naming lost-d ended; those of lost-c alone go on live
    assert.equal(closed, 4);
    for (const stream of [onD, bothFiltered, both]) await stream.end();
    assert.equal(await wsOnD.waitClosed(), 1006);
    assert.equal(lossy.server.context.connections.size, 2);
    const warnings = log.find((r) => typeof r.msg === 'string' && r.msg.startsWith('live feed: positions 20-21 of log 1'));
    assert.deepEqual(warnings.map((r) => [r.log, r.closed]), [[1, 4]]);
    try {
      const { json: live } = await publish(`${url}/lost-c`, 'still live');
      assert.equal((await onC.nextJson()).id, live.id);
      assert.equal((await wsOnC.next()).id, live.id);
    } finally {
      onC.close();
      wsOnC.close();
    }
  });
});
