import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import bcrypt from 'bcryptjs';
import { LineStream, type Json } from '../support/clients.js';
import { Scrape } from '../support/prometheus.js';
import { startTestServer, tempDir, type TestServer } from '../support/server.js';

/** The Matrix push gateway (ntfy's server_matrix.go): a homeserver's pushes published to the pushkey's topic. */

const baseUrl = 'https://ntfy.example.com';
const path = '/_matrix/push/v1/notify';

async function server(settings: Record<string, unknown> = {}): Promise<TestServer> {
  const s = await startTestServer({ 'base-url': baseUrl, ...settings });
  after(() => s.server.close());
  return s;
}

/** A Matrix push gateway request, as Synapse sends it (spec.matrix.org push-gateway-api), for `pushkey`. */
function notification(pushkey: string): string {
  return JSON.stringify({
    notification: {
      event_id: '$3957tyerfgewrf384',
      room_id: '!slw48wfj34rtnrf:example.com',
      type: 'm.room.message',
      sender: '@exampleuser:matrix.org',
      counts: { unread: 2 },
      devices: [{ app_id: 'org.matrix.matrixConsole.ios', pushkey, pushkey_ts: 12345678, data: {} }],
    },
  });
}

async function notify(s: TestServer, body: string, headers: Record<string, string> = {}): Promise<{ status: number; json: Json }> {
  const res = await fetch(`${s.url}${path}`, { method: 'POST', body, headers });
  return { status: res.status, json: (await res.json()) as Json };
}

const codeOf = ({ status, json }: { status: number; json: Json }): [number, unknown] => [status, json.code];

describe('Matrix gateway — discovery and forwarding', () => {
  it('GET answers the UnifiedPush gateway discovery', async () => {
    const s = await server();
    const res = await fetch(`${s.url}${path}`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/json');
    assert.deepEqual(await res.json(), { unifiedpush: { gateway: 'matrix' } });
  });

  it('POST publishes the whole body verbatim to the pushkey\'s topic and answers rejected: []', async () => {
    // Given: an app subscribed to its UnifiedPush topic.
    const s = await server({ 'enable-metrics': true });
    const topic = 'upAbCdEf123456';
    const subscriber = new LineStream(`${s.url}/${topic}/json`);
    assert.equal(JSON.parse(await subscriber.next()).event, 'open');

    // When: the homeserver pushes to the pushkey it was given.
    const body = notification(`${baseUrl}/${topic}?up=1`);
    const answer = await notify(s, body);

    // Then: answered as the spec says, and the subscriber has the body as the message.
    assert.deepEqual(answer, { status: 200, json: { rejected: [] } });
    const message = JSON.parse(await subscriber.next()) as Json;
    assert.equal(message.event, 'message');
    assert.equal(message.topic, topic);
    assert.equal(message.message, body);
    assert.equal(message.title, undefined);
    subscriber.close();
    const scrape = await Scrape.of(`${s.url}/metrics`);
    assert.equal(scrape.value('ntfy_matrix_published_success'), 1);
    assert.equal(scrape.value('ntfy_unifiedpush_published_success'), 1, 'the pushkey\'s up=1 makes it a UnifiedPush publish');
  });

  it('a pushkey outside base-url is returned in rejected and nothing is published', async () => {
    const s = await server();
    const pushkey = 'https://other.example.com/upAbCdEf123456?up=1';
    assert.deepEqual(await notify(s, notification(pushkey)), { status: 200, json: { rejected: [pushkey] } });
    assert.deepEqual(await notify(s, notification(`${baseUrl}upAbCdEf123456`)), { status: 200, json: { rejected: [`${baseUrl}upAbCdEf123456`] } }, 'base-url must be followed by a slash');
    const poll = await (await fetch(`${s.url}/upAbCdEf123456/json?poll=1`)).text();
    assert.equal(poll, '');
  });

  it('the pushkey\'s topic passes the publish guards with the homeserver\'s credentials', async () => {
    const hash = bcrypt.hashSync('pw', 4);
    const s = await server({ 'auth-file': join(tempDir(), 'auth.db'), 'auth-default-access': 'deny-all', 'auth-users': [`synapse:${hash}:user`], 'auth-access': ['synapse:up*:wo'] });
    const body = notification(`${baseUrl}/upAbCdEf123456?up=1`);
    assert.deepEqual(codeOf(await notify(s, body)), [403, 40301], 'anonymous may not write');
    const basic = `Basic ${Buffer.from('synapse:pw').toString('base64')}`;
    assert.deepEqual(await notify(s, body, { Authorization: basic }), { status: 200, json: { rejected: [] } });
  });
});

describe('Matrix gateway — errors as ntfy', () => {
  it('40019 for a body that is no Matrix notification: not JSON, no notification, no devices, empty pushkey', async () => {
    const s = await server();
    const invalid = ['not json', '{}', '{"notification":{}}', '{"notification":{"devices":[]}}', '{"notification":{"devices":[{"pushkey":""}]}}', 'null'];
    for (const body of invalid) {
      const answer = await notify(s, body);
      assert.deepEqual(codeOf(answer), [400, 40019], body);
      assert.equal(answer.json.error, 'invalid request: Matrix JSON invalid');
    }
  });

  it('41302 for a body over message-size-limit', async () => {
    const s = await server({ 'message-size-limit': '1k' });
    const body = notification(`${baseUrl}/upAbCdEf123456?up=1`).replace('"data":{}', `"data":{"pad":"${'x'.repeat(1024)}"}`);
    assert.deepEqual(codeOf(await notify(s, body)), [413, 41302]);
  });

  it('40009 for a pushkey under base-url that names no topic', async () => {
    const s = await server();
    assert.deepEqual(codeOf(await notify(s, notification(`${baseUrl}/not.a.topic`))), [400, 40009]);
  });

  it('500/50003 on GET and POST without base-url', async () => {
    const s = await startTestServer();
    after(() => s.server.close());
    const get = await fetch(`${s.url}${path}`);
    assert.deepEqual([get.status, ((await get.json()) as Json).code], [500, 50003]);
    assert.deepEqual(codeOf(await notify(s, notification('https://ntfy.example.com/upAbCdEf123456?up=1'))), [500, 50003]);
  });

  it('507/50701 with visitor-subscriber-rate-limiting until the app subscribed to its topic, then the push succeeds', async () => {
    const s = await server({ 'visitor-subscriber-rate-limiting': true });
    const topic = 'upXyZ987654321';
    const body = notification(`${baseUrl}/${topic}?up=1`);
    assert.deepEqual(codeOf(await notify(s, body)), [507, 50701], 'nobody to bill yet');
    assert.equal((await fetch(`${s.url}/${topic}/json?poll=1`)).status, 200);
    assert.deepEqual(await notify(s, body), { status: 200, json: { rejected: [] } }, 'the app polled: it pays');
    const polled = (await (await fetch(`${s.url}/${topic}/json?poll=1`)).text()).trim().split('\n');
    assert.equal(polled.length, 1);
    assert.equal((JSON.parse(polled[0] as string) as Json).message, body);
  });
});
