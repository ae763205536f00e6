import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { LineStream, publish, SseStream, type Json } from '../support/clients.js';
import { startTestServer, type TestServer } from '../support/server.js';

/** Issue 37, item 1: SSE events name their message, and `Last-Event-ID` resumes after it. */

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(() => s.server.close());

const ids = (events: { data: string }[]): string[] => events.map((e) => (JSON.parse(e.data) as Json).id as string);

async function publishAll(topic: string, bodies: string[]): Promise<string[]> {
  const sent: string[] = [];
  for (const body of bodies) sent.push((await publish(`${s.url}/${topic}`, body)).json.id as string);
  return sent;
}

/** The SSE events after `open` until `count` arrived. */
async function sseEvents(url: string, headers: Record<string, string>, count: number): Promise<{ event: string; data: string; id?: string }[]> {
  const stream = new SseStream(url, { headers });
  assert.equal((await stream.next()).event, 'open');
  const got = [];
  while (got.length < count) got.push(await stream.next());
  stream.close();
  return got;
}

describe('SSE resume — id: lines', () => {
  it('a message, a message_clear and a message_delete carry their id; open and an uncached message do not', async () => {
    const raw = new LineStream(`${s.url}/ids/sse`);
    assert.equal(await raw.next(), 'event: open');
    await raw.next();
    await raw.next();
    const { json: message } = await publish(`${s.url}/ids`, 'one', { 'X-Sequence-ID': 'seq1' });
    assert.deepEqual([await raw.next(), await raw.next(), await raw.next()], [`id: ${message.id as string}`, `data: ${JSON.stringify(message)}`, '']);
    const { json: clear } = await publish(`${s.url}/ids/seq1/clear`, '', {}, 'PUT');
    assert.deepEqual([await raw.next(), await raw.next(), await raw.next()], [`id: ${clear.id as string}`, 'event: message_clear', `data: ${JSON.stringify(clear)}`]);
    await raw.next();
    const { json: deleted } = await publish(`${s.url}/ids/seq1`, '', {}, 'DELETE');
    assert.deepEqual([await raw.next(), await raw.next()], [`id: ${deleted.id as string}`, 'event: message_delete']);
    await raw.next();
    await raw.next();
    const { json: uncached } = await publish(`${s.url}/ids`, 'fleeting', { Cache: 'no' });
    assert.deepEqual([await raw.next(), await raw.next()], [`data: ${JSON.stringify(uncached)}`, '']);
    raw.close();
  });

  it('replayed messages carry their id too', async () => {
    const sent = await publishAll('ids-replay', ['a', 'b']);
    const got = await sseEvents(`${s.url}/ids-replay/sse?since=all`, {}, 2);
    assert.deepEqual(
      got.map((e) => e.id),
      sent,
    );
  });
});

describe('SSE resume — Last-Event-ID', () => {
  it('resumes after the named message, as since=<id> does', async () => {
    const sent = await publishAll('resume', ['1', '2', '3', '4']);
    const got = await sseEvents(`${s.url}/resume/sse`, { 'Last-Event-ID': sent[1] as string }, 2);
    assert.deepEqual(ids(got), sent.slice(2));
    const polled = (await (await fetch(`${s.url}/resume/json?poll=1`, { headers: { 'Last-Event-ID': sent[2] as string } })).text()).trim().split('\n');
    assert.deepEqual(
      polled.map((l) => (JSON.parse(l) as Json).id),
      sent.slice(3),
    );
  });

  it('an explicit since= wins over Last-Event-ID', async () => {
    const sent = await publishAll('resume-wins', ['1', '2', '3']);
    const got = await sseEvents(`${s.url}/resume-wins/sse?since=${sent[0] as string}`, { 'Last-Event-ID': sent[1] as string }, 2);
    assert.deepEqual(ids(got), sent.slice(1));
  });

  it('a Last-Event-ID that is no since value is refused as a bad since= is', async () => {
    const res = await fetch(`${s.url}/resume-bad/sse`, { headers: { 'Last-Event-ID': 'not an id!' } });
    assert.equal(res.status, 400);
    assert.equal(((await res.json()) as Json).code, 40008);
  });
});
