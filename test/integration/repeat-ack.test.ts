import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import bcrypt from 'bcryptjs';
import { apiCall, basic } from '../support/account-api.js';
import { callbackSink } from '../support/callback-sink.js';
import { LineStream, publish, type Json } from '../support/clients.js';
import { LogCapture } from '../support/log.js';
import { startTestServer, tempDir, type TestServer } from '../support/server.js';
import { SmtpSink } from '../support/smtp.js';
import { TwilioPeer } from '../support/twilio-peer.js';
import { pro } from '../store/contracts/auth-fixtures.js';

/**
 * Alerts repeated until acknowledged (issue 37, item 5) on the embedded store, with a
 * minimum interval of 1 s: a real server, the local SMTP peer and the Twilio-API peer.
 */

const hash = bcrypt.hashSync('secret', 4);
const baseUrl = 'http://tocsin.test';
const account = 'AC0123456789abcdef0123456789abcdef';
const log = new LogCapture();
let s: TestServer;
// At the top level: the sink closes itself in an `after` hook, which inside `before` would run as soon as it ends.
const sink = await SmtpSink.start();
let peer: TwilioPeer;
before(async () => {
  peer = await TwilioPeer.start();
  s = await startTestServer({
    'base-url': baseUrl,
    'cache-file': join(tempDir(), 'cache.db'),
    'auth-file': join(tempDir(), 'auth.db'),
    'auth-users': [`phil:${hash}:user`],
    'auth-access': ['*:locked:wo'],
    'repeat-min-interval': '1s',
    'repeat-until-limit': '1h',
    'repeat-callback-allow-private': true,
    'smtp-sender-addr': sink.address,
    'smtp-sender-from': 'tocsin@example.com',
    'twilio-account': account,
    'twilio-auth-token': 'twilio-secret',
    'twilio-phone-number': '+18775132586',
    'twilio-verify-service': 'VA0123456789abcdef0123456789abcdef',
    'twilio-calls-base-url': peer.url,
    'twilio-verify-base-url': peer.url,
  }, log.logger);
  const store = s.server.context.access!.store;
  await store.putTier(pro, false);
  await store.changeTier('phil', 'pro');
  await store.addPhoneNumber('phil', '+15551234567');
});
after(async () => {
  await s.server.close();
  peer.close();
});

const receipt = async (id: string, authorization?: string): Promise<[number, Json]> => apiCall(s.url, 'GET', `/v1/receipts/${id}`, authorization);
const ack = (topic: string, id: string, authorization?: string): Promise<[number, Json]> => apiCall(s.url, 'PUT', `/${topic}/${id}/ack`, authorization);

/** The next event of `stream` other than keepalives. */
async function nextEvent(stream: LineStream, timeoutMs = 5000): Promise<Json> {
  for (;;) {
    const event = await stream.nextJson(timeoutMs);
    if (event.event !== 'keepalive') return event;
  }
}

async function cached(topic: string): Promise<Json[]> {
  const text = await (await fetch(`${s.url}/${topic}/json?poll=1`)).text();
  return text === '' ? [] : text.trimEnd().split('\n').map((line) => JSON.parse(line) as Json);
}

/** Waits until the receipt of `id` satisfies `done`. */
async function receiptUntil(id: string, done: (r: Json) => boolean, timeoutMs = 10_000): Promise<Json> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [, r] = await receipt(id);
    if (done(r)) return r;
    if (Date.now() > deadline) throw new Error(`receipt never got there: ${JSON.stringify(r)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('repeat — alerts repeated until acknowledged', () => {
  it('each repeat is a new message under the original\'s sequence id with an Acknowledge action; an ack stops them, clears, and POSTs the receipt', async () => {
    const callback = await callbackSink();
    const stream = new LineStream(`${s.url}/alarm/json`);
    after(() => stream.close());
    assert.equal((await stream.nextJson()).event, 'open');
    const { status, json: original } = await publish(`${s.url}/alarm`, 'disk full', { Repeat: '1s', 'Repeat-Until': '30s', Callback: callback.url, Title: 'db1' });
    assert.equal(status, 200);
    const id = original.id as string;
    const button = { id: `ack${id.slice(0, 7)}`, action: 'http', label: 'Acknowledge', clear: true, url: `${baseUrl}/alarm/${id}/ack`, method: 'PUT' };
    assert.deepEqual([original.sequence_id, original.actions], [id, [button]]);
    assert.equal((await nextEvent(stream)).id, id, 'the original goes out');
    for (let n = 1; n <= 2; n++) {
      const repeat = await nextEvent(stream);
      assert.deepEqual(
        { event: repeat.event, sequence_id: repeat.sequence_id, title: repeat.title, message: repeat.message, actions: repeat.actions, fresh: repeat.id !== id },
        { event: 'message', sequence_id: id, title: 'db1', message: 'disk full', actions: [button], fresh: true },
        `repeat ${n}`,
      );
      assert.equal((repeat.expires as number) - (repeat.time as number), (original.expires as number) - (original.time as number), 'as long-lived as the original');
    }
    const [, before] = await receipt(id);
    assert.deepEqual({ ...before, repeats: undefined }, { id, topic: 'alarm', acknowledged: false, acknowledged_at: 0, acknowledged_by: '', repeats: undefined, expires: (original.time as number) + 30, escalations: [] });
    assert.ok((before.repeats as number) >= 2);

    const [ackStatus, acked] = await ack('alarm', id);
    assert.deepEqual([ackStatus, acked.acknowledged, acked.acknowledged_by], [200, true, 'anonymous']);
    assert.ok(Math.abs((acked.acknowledged_at as number) - Date.now() / 1000) < 3);
    let clear = await nextEvent(stream);
    while (clear.event === 'message') clear = await nextEvent(stream); // a repeat already under way
    assert.deepEqual([clear.event, clear.sequence_id, clear.topic], ['message_clear', id, 'alarm']);
    const posted = await callback.bodies.take(5000);
    assert.deepEqual(posted, { method: 'POST', type: 'application/json', body: acked });

    const count = (await cached('alarm')).length;
    await pause(2500); // two intervals: no repeat comes after the acknowledgement
    assert.equal((await cached('alarm')).length, count);
    assert.deepEqual(await receipt(id), [200, acked]);
    assert.deepEqual(await ack('alarm', id), [200, acked], 'again: the same receipt, nothing new');
    await pause(200);
    assert.equal((await cached('alarm')).length, count, 'no second message_clear');
  });

  it('JSON fields and query parameters ask the same; repeats stop at Repeat-Until', async () => {
    const viaJson = (await publish(s.url, JSON.stringify({ topic: 'alarm-json', message: 'x', repeat: '1s', repeat_until: '2s' }))).json;
    const viaQuery = (await publish(`${s.url}/alarm-query?repeat=1s&repeat-until=1s`, 'y')).json;
    for (const [m, until] of [[viaJson, 2], [viaQuery, 1]] as const) {
      const r = await receiptUntil(m.id as string, (x) => x.repeats === until);
      assert.equal(r.expires, (m.time as number) + until);
    }
    await pause(2000);
    assert.equal((await receipt(viaJson.id as string))[1].repeats, 2, 'no repeat past Repeat-Until');
    assert.equal((await cached('alarm-json')).length, 3, 'the original and two repeats');
  });

  it('escalation: the e-mail and the call go out through the server\'s channels if nobody acknowledged, and the receipt lists them', async () => {
    const { json } = await publish(`${s.url}/escalated`, 'pump failed', { Repeat: '1s', 'Repeat-Until': '1m', Escalate: '1s email ops@example.com, 2s call +15551234567' }, 'POST');
    assert.equal(json.code, 40035, 'a call needs a user, as X-Call');
    const res = await fetch(`${s.url}/escalated`, {
      method: 'POST', body: 'pump failed',
      headers: { Authorization: basic('phil'), Repeat: '1s', 'Repeat-Until': '1m', Escalate: '1s email ops@example.com, 2s call +15551234567' },
    });
    const m = (await res.json()) as Json;
    assert.equal(res.status, 200, JSON.stringify(m));
    const mail = await sink.mails.take(10_000);
    assert.deepEqual([mail.to, mail.parsed.subject], [['ops@example.com'], 'pump failed']);
    const call = await peer.requests.take(10_000);
    assert.deepEqual([call.path, call.form.To], [`/2010-04-01/Accounts/${account}/Calls.json`, '+15551234567']);
    const r = await receiptUntil(m.id as string, (x) => (x.escalations as Json[]).length === 2);
    assert.deepEqual((r.escalations as Json[]).map((e) => [e.via, e.to]), [['email', 'ops@example.com'], ['call', '+15551234567']]);
    assert.equal((await ack('escalated', m.id as string, basic('phil')))[1].acknowledged_by, 'phil');
  });

  it('an alert acknowledged in time never escalates', async () => {
    const { json: m } = await publish(`${s.url}/calm`, 'x', { Repeat: '1s', 'Repeat-Until': '1m', Escalate: '2s email ops@example.com' });
    assert.equal((await ack('calm', m.id as string))[0], 200);
    await pause(3000);
    await assert.rejects(sink.mails.take(100), /timed out/);
    assert.deepEqual((await receipt(m.id as string))[1].escalations, []);
  });

  it('acknowledging and reading a receipt need read permission on the topic (40301)', async () => {
    const { json: m } = await publish(`${s.url}/locked`, 'x', { Repeat: '1s', 'Repeat-Until': '1m' });
    assert.equal(m.event, 'message');
    assert.deepEqual((await ack('locked', m.id as string)).map((v, i) => (i === 1 ? (v as Json).code : v)), [403, 40301]);
    assert.deepEqual((await receipt(m.id as string)).map((v, i) => (i === 1 ? (v as Json).code : v)), [403, 40301]);
    assert.equal((await ack('locked', m.id as string, basic('phil')))[0], 403, 'phil has no grant on it either');
  });
});

describe('repeat — bad input', () => {
  const code = async (topic: string, headers: Record<string, string>, body = 'x'): Promise<[number, unknown]> => {
    const { status, json } = await publish(`${s.url}/${topic}`, body, headers);
    return [status, json.code];
  };

  it('each new header refuses what it cannot take with its own 400 code, and the server goes on', async () => {
    const cases: [Record<string, string>, number][] = [
      [{ Repeat: 'soon' }, 40095],
      [{ Repeat: '500ms' }, 40095], // below repeat-min-interval
      [{ Repeat: '2h' }, 40095], // past repeat-until-limit
      [{ Repeat: '-1m' }, 40095],
      [{ Repeat: '1s', 'Repeat-Until': 'later' }, 40096],
      [{ Repeat: '10s', 'Repeat-Until': '5s' }, 40096], // shorter than the interval
      [{ Repeat: '1s', 'Repeat-Until': '2h' }, 40096],
      [{ Repeat: '1s', Callback: 'ftp://example.com/x' }, 40097],
      [{ Repeat: '1s', Callback: 'javascript:alert(1)' }, 40097],
      [{ Repeat: '1s', Callback: 'not a url' }, 40097],
      [{ Repeat: '1s', Escalate: '1s fax +1555' }, 40098],
      [{ Repeat: '1s', Escalate: 'soon email ops@example.com' }, 40098],
      [{ Repeat: '1s', 'Repeat-Until': '10s', Escalate: '1m email ops@example.com' }, 40098], // after Repeat-Until
      [{ Repeat: '1s', Escalate: '1s email not-an-address' }, 40098],
      [{ Repeat: '1s', Escalate: '1s call 5551234' }, 40098],
      [{ Repeat: '1s', Escalate: Array(6).fill('1s email ops@example.com').join(', ') }, 40098],
      [{ 'Repeat-Until': '1h' }, 40099],
      [{ Callback: 'https://example.com/' }, 40099],
      [{ Escalate: '1s email ops@example.com' }, 40099],
      [{ Repeat: '1s', Delay: '1h' }, 40099],
      [{ Repeat: '1s', Cache: 'no' }, 40099],
      [{ Repeat: '1s', Actions: 'view, a, https://a.example; view, b, https://b.example; view, c, https://c.example' }, 40018],
    ];
    for (const [headers, expected] of cases) assert.deepEqual(await code('bad', headers), [400, expected], JSON.stringify(headers));
    assert.deepEqual((await publish(s.url, JSON.stringify({ topic: 'bad', repeat: 60 }))).json.code, 40024, 'the JSON field is a string');
    assert.deepEqual(await cached('bad'), [], 'nothing was published');
    assert.equal((await fetch(`${s.url}/v1/health`)).status, 200);
  });

  it('ack and receipts: a malformed id is 40091, an unknown one (or one of another topic) 40403', async () => {
    const { json: m } = await publish(`${s.url}/mine`, 'x', { Repeat: '1s', 'Repeat-Until': '1m' });
    const plain = (await publish(`${s.url}/mine`, 'not repeated')).json;
    const codeOf = async (p: Promise<[number, Json]>): Promise<[number, unknown]> => {
      const [status, json] = await p;
      return [status, json.code];
    };
    assert.deepEqual(await codeOf(ack('mine', 'short')), [400, 40091]);
    assert.deepEqual(await codeOf(ack('mine', 'x'.repeat(70))), [400, 40091]);
    assert.deepEqual(await codeOf(receipt('bad!id')), [400, 40091]);
    assert.deepEqual(await codeOf(ack('mine', 'abcdefABCDEF')), [404, 40403]);
    assert.deepEqual(await codeOf(ack('mine', plain.id as string)), [404, 40403], 'a message without Repeat');
    assert.deepEqual(await codeOf(ack('other', m.id as string)), [404, 40403], 'another topic');
    assert.deepEqual(await codeOf(receipt('abcdefABCDEF')), [404, 40403]);
    assert.equal((await receipt(m.id as string))[1].acknowledged, false, 'none of that acknowledged it');
    await ack('mine', m.id as string);
  });
});

describe('repeat — what one publisher may ask', () => {
  it('every planned repeat counts against the visitor\'s daily messages at publish (42908), all or none of them', async () => {
    const limited = await startTestServer({ 'base-url': baseUrl, 'repeat-min-interval': '1s', 'visitor-message-daily-limit': 10 });
    after(() => limited.server.close());
    const ask = async (until: string): Promise<unknown> => (await publish(`${limited.url}/flood`, 'x', { Repeat: '1s', 'Repeat-Until': until })).json.code ?? 'ok';
    // The original is taken before its repeats, as by any publish a later guard refuses.
    assert.equal(await ask('20s'), 42908, '1 + 20 messages: the 1 is taken');
    assert.equal(await ask('5s'), 'ok', '1 + 1 + 5');
    assert.equal(await ask('3s'), 42908, '7 + 1 + 3: the 1 is taken');
    assert.equal(await ask('1s'), 'ok', '8 + 1 + 1 = 10');
    assert.equal((await publish(`${limited.url}/flood`, 'plain')).json.code, 42908, 'the day\'s messages are used up');
  });

  it('a Callback is https:// only, and never reaches a private address, unless repeat-callback-allow-private', async () => {
    const strict = new LogCapture();
    const server = await startTestServer({ 'base-url': baseUrl, 'repeat-min-interval': '1s' }, strict.logger);
    after(() => server.server.close());
    const callback = await callbackSink();
    assert.equal((await publish(`${server.url}/cb`, 'x', { Repeat: '1s', Callback: callback.url })).json.code, 40097, 'http://');
    const { json: m } = await publish(`${server.url}/cb`, 'x', { Repeat: '1s', Callback: callback.url.replace('http://', 'https://') });
    assert.equal((await apiCall(server.url, 'PUT', `/cb/${m.id as string}/ack`))[0], 200);
    const failed = await strict.next((r) => r.msg === 'alert callback failed');
    assert.match(JSON.stringify(failed.err), /not a public address/);
    await assert.rejects(callback.bodies.take(100), /timed out/);
  });

  it('a Callback\'s redirect is not followed, and an answer without end is not read: the connection closes at its status line', async () => {
    const target = await callbackSink();
    let closed!: () => void;
    const connectionClosed = new Promise<void>((resolve) => (closed = resolve));
    const endless = createServer((req, res) => {
      res.writeHead(302, { Location: target.url });
      const timer = setInterval(() => res.write(Buffer.alloc(64 * 1024)), 5);
      res.on('close', () => {
        clearInterval(timer);
        closed();
      });
    });
    await new Promise<void>((resolve) => endless.listen(0, '127.0.0.1', resolve));
    after(() => {
      endless.closeAllConnections();
      endless.close();
    });
    const from = log.records.length;
    const { json: m } = await publish(`${s.url}/redirected`, 'x', { Repeat: '1s', Callback: `http://127.0.0.1:${(endless.address() as AddressInfo).port}/` });
    await ack('redirected', m.id as string);
    const sent = await log.after(from, (r) => r.msg === 'alert callback sent');
    assert.equal(sent.status, 302);
    await Promise.race([connectionClosed, pause(2000).then(() => assert.fail('still reading the answer'))]);
    await assert.rejects(target.bodies.take(200), /timed out/);
  });

  it('repeats survive a restart: the jobs and the receipt are in the cache file', async () => {
    const file = join(tempDir(), 'restart.db');
    const settings = { 'base-url': baseUrl, 'repeat-min-interval': '1s', 'cache-file': file };
    const first = await startTestServer(settings);
    const { json: m } = await publish(`${first.url}/restart`, 'x', { Repeat: '2s', 'Repeat-Until': '1m' });
    await first.server.close();
    const second = await startTestServer(settings);
    after(() => second.server.close());
    const deadline = Date.now() + 10_000;
    let repeats: Json[] = [];
    while (repeats.length < 2 && Date.now() < deadline) {
      await pause(200);
      const text = await (await fetch(`${second.url}/restart/json?poll=1`)).text();
      repeats = text.trimEnd().split('\n').map((line) => JSON.parse(line) as Json).filter((e) => e.id !== m.id);
    }
    assert.deepEqual(repeats.map((r) => r.sequence_id), [m.id, m.id]);
    assert.equal((await apiCall(second.url, 'GET', `/v1/receipts/${m.id as string}`))[1].repeats, 2);
  });

  it('Repeat needs base-url, for the Acknowledge button (50003)', async () => {
    const bare = await startTestServer({ 'repeat-min-interval': '1s' });
    after(() => bare.server.close());
    assert.equal((await publish(`${bare.url}/x`, 'x', { Repeat: '1s' })).json.code, 50003);
  });
});
