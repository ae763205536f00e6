import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Json } from '../support/clients.js';
import { Scrape } from '../support/prometheus.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * ntfy 2.23's topic-creation limit against a real server (every request from 127.0.0.1):
 * a topic the server does not know costs a token of the visitor's bucket, a known one
 * nothing; past the bucket 429/42911.
 */

async function server(settings: Record<string, unknown>): Promise<TestServer> {
  const s = await startTestServer(settings);
  after(() => s.server.close());
  return s;
}

async function outcome(res: Promise<Response>): Promise<[number, number | undefined]> {
  const r = await res;
  const text = await r.text(); // a poll of an empty topic answers 200 with no lines
  return [r.status, r.status === 200 ? undefined : ((JSON.parse(text) as Json).code as number)];
}

const publish = (s: TestServer, topic: string): Promise<[number, number | undefined]> => outcome(fetch(`${s.url}/${topic}`, { method: 'POST', body: 'x' }));
const poll = (s: TestServer, topics: string): Promise<[number, number | undefined]> => outcome(fetch(`${s.url}/${topics}/json?poll=1`));

describe('topic creation limit', () => {
  it('new topics take tokens (publish and subscribe alike), known ones none; past the burst 42911, one more per interval', async () => {
    const s = await server({ 'visitor-topic-creation-limit-burst': 3, 'visitor-topic-creation-limit-replenish': '400ms', 'enable-metrics': true });
    assert.deepEqual(await publish(s, 'new1'), [200, undefined]);
    assert.deepEqual(await poll(s, 'new2'), [200, undefined], 'polling a fresh name creates it too (as long as it runs)');
    assert.deepEqual(await publish(s, 'new3'), [200, undefined]);
    assert.deepEqual(await publish(s, 'new4'), [429, 42911]);
    assert.deepEqual(await poll(s, 'new5'), [429, 42911]);
    assert.deepEqual(await publish(s, 'new1'), [200, undefined], 'a known topic costs nothing');
    await sleep(450);
    // One token back: a request naming two new topics is refused whole and spends nothing.
    assert.deepEqual(await poll(s, 'new6,new7'), [429, 42911]);
    assert.deepEqual(await publish(s, 'new6'), [200, undefined]);
    assert.deepEqual(await publish(s, 'new7'), [429, 42911]);

    const scrape = await Scrape.of(`${s.url}/metrics`);
    assert.equal(scrape.value('ntfy_http_requests_total', { http_code: '429', ntfy_code: '42911', http_method: 'POST' }), 2);
    assert.equal(scrape.value('ntfy_http_requests_total', { http_code: '429', ntfy_code: '42911', http_method: 'GET' }), 2);
    assert.equal(scrape.value('tocsin_limit_hits_total', { code: '42911' }), 4);
  });

  it('checks in ntfy\'s order: a disallowed name (40010), then global-topic-limit (42904), then the bucket', async () => {
    const s = await server({ 'visitor-topic-creation-limit-burst': 1, 'visitor-topic-creation-limit-replenish': '1h', 'global-topic-limit': 2, 'disallowed-topics': ['secret'] });
    assert.deepEqual(await publish(s, 'first'), [200, undefined]);
    assert.deepEqual(await publish(s, 'secret'), [400, 40010]);
    assert.deepEqual(await poll(s, 'second,third'), [429, 42904]);
    assert.deepEqual(await publish(s, 'second'), [429, 42911]);
  });

  it('burst 0 turns the limit off', async () => {
    const s = await server({ 'visitor-topic-creation-limit-burst': 0 });
    for (let i = 0; i < 150; i++) assert.deepEqual(await publish(s, `free${i}`), [200, undefined]);
  });

  it('exempt hosts are not limited, as for requests', async () => {
    const s = await server({ 'visitor-topic-creation-limit-burst': 1, 'visitor-topic-creation-limit-replenish': '1h', 'visitor-request-limit-exempt-hosts': ['127.0.0.1'] });
    for (let i = 0; i < 5; i++) assert.deepEqual(await publish(s, `exempt${i}`), [200, undefined]);
  });
});
