import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { publish } from '../support/clients.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * cache-batch-timeout (issue 39): publishes queued together wait for more up to the timeout,
 * a lone one does not. The server runs in this process, so the test can make publishes
 * arrive in one event-loop turn for certain: it writes them on connections already open and
 * holds the loop until they are all in the kernel's buffers.
 */

/** POSTs m0..m{count-1} to `topic`, one connection each, arriving together; resolves with the messages answered, in id order, and the ms until the last answer. */
async function together(url: string, topic: string, count: number): Promise<{ messages: string[]; ms: number }> {
  const { hostname, port } = new URL(url);
  const sockets = await Promise.all(
    Array.from({ length: count }, () => new Promise<Socket>((resolve, reject) => connect(Number(port), hostname).once('connect', function (this: Socket) { resolve(this); }).once('error', reject))),
  );
  const answers = sockets.map(
    (socket) =>
      new Promise<{ id: string; message: string }>((resolve, reject) => {
        let received = '';
        socket.on('data', (chunk: Buffer) => {
          received += chunk.toString();
          const body = /\r\n\r\n(\{.*\})\n/.exec(received)?.[1];
          if (body === undefined) return;
          socket.destroy();
          resolve(JSON.parse(body) as { id: string; message: string });
        });
        socket.on('error', reject);
      }),
  );
  const started = performance.now();
  sockets.forEach((socket, i) => socket.write(`POST /${topic} HTTP/1.1\r\nHost: ${hostname}\r\nContent-Length: ${String(i).length + 1}\r\n\r\nm${i}`));
  while (performance.now() - started < 20); // every request reaches the server's sockets before its next poll
  const answered = await Promise.all(answers);
  return { messages: answered.sort((a, b) => (a.id < b.id ? -1 : 1)).map((m) => m.message), ms: performance.now() - started };
}

describe('cache-batch-timeout: 1s', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ 'cache-batch-timeout': '1s', 'cache-batch-size': 3 });
  });
  after(() => s.server.close());

  it('a lone publish is answered at once, not after the timeout', async () => {
    const started = performance.now();
    const { status, json } = await publish(`${s.url}/lone`, 'alone');
    assert.equal(status, 200);
    assert.equal(json.message, 'alone');
    assert.ok(performance.now() - started < 500, 'answered well before the 1 s timeout');
  });

  it('two publishes queued together wait for a third until the timeout, then commit together', async () => {
    const { messages, ms } = await together(s.url, 'pair', 2);
    assert.deepEqual(new Set(messages), new Set(['m0', 'm1']));
    assert.ok(ms >= 900, `answered after ${ms} ms`);
  });

  it('a batch that fills cache-batch-size goes at once', async () => {
    const { messages, ms } = await together(s.url, 'full', 3);
    assert.deepEqual(new Set(messages), new Set(['m0', 'm1', 'm2']));
    assert.ok(ms < 500, `answered after ${ms} ms`);
  });
});
