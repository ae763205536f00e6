import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import { follow, type Received } from '../../../src/cli/client/subscription.js';
import { Mailbox } from '../../support/clients.js';

/**
 * The reconnect loop against a scripted HTTP server: each connection gets the next
 * answer of the script, and the test reads which `since=` every request asked for.
 */
async function scriptedServer(answers: ((res: ServerResponse) => void)[]): Promise<{ url: string; requests: Mailbox<string> }> {
  const requests = new Mailbox<string>();
  const server = createServer((req, res) => {
    requests.put(req.url ?? '');
    const answer = answers.shift();
    if (answer) answer(res);
    else res.writeHead(200).write(line({ id: 'open9', time: 9, event: 'open', topic: 't' })); // then stays open
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  after(() => {
    server.closeAllConnections();
    server.close();
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/t`, requests };
}

const line = (m: object): string => `${JSON.stringify(m)}\n`;
const message = (id: string, time = 100): string => line({ id, time, event: 'message', topic: 't', message: id });

describe('subscribe — the reconnect loop', () => {
  it('asks for since= the last id seen, drops what it already delivered, and logs each break', async () => {
    const { url, requests } = await scriptedServer([
      (res) => res.writeHead(200).end(line({ id: 'o1', time: 50, event: 'open', topic: 't' }) + message('a1') + message('a2')),
      (res) => res.writeHead(403).end('{"code":40301,"http":403,"error":"forbidden"}'),
      // An id the server no longer holds: it replays the whole cache.
      (res) => res.writeHead(200).end(line({ id: 'o2', time: 60, event: 'open', topic: 't' }) + message('a1') + message('a2') + message('a3')),
    ]);
    const delivered = new Mailbox<string>();
    const warnings: string[] = [];
    const stop = new AbortController();
    after(() => stop.abort()); // also when an assertion fails first
    const done = follow({ url, query: { scheduled: '1' }, auth: 'Bearer tk_x' }, async (item: Received) => delivered.put(item.message.id), (w) => warnings.push(w), stop.signal);
    assert.equal(await requests.take(5000), '/t/json?scheduled=1');
    assert.deepEqual([await delivered.take(5000), await delivered.take(5000)], ['a1', 'a2']);
    assert.equal(await requests.take(5000), '/t/json?scheduled=1&since=a2');
    assert.equal(await requests.take(5000), '/t/json?scheduled=1&since=a2');
    assert.equal(await delivered.take(5000), 'a3');
    assert.equal(await requests.take(5000), '/t/json?scheduled=1&since=a3');
    stop.abort();
    await done;
    const host = url.replace('http://', '');
    assert.deepEqual(warnings, [
      `${host} Connection closed by the server`,
      `${host} Connection failed: {"code":40301,"http":403,"error":"forbidden"}`,
      `${host} Connection closed by the server`,
    ]);
  });

  it('before any message, a reconnect asks for since= the time the first stream opened', async () => {
    const { url, requests } = await scriptedServer([
      (res) => res.writeHead(200).end(line({ id: 'o1', time: 1700000000, event: 'open', topic: 't' })),
      (res) => res.writeHead(200).end(line({ id: 'o2', time: 1700000005, event: 'open', topic: 't' }) + line({ id: 'k', time: 1700000006, event: 'keepalive', topic: 't' })),
    ]);
    const stop = new AbortController();
    after(() => stop.abort());
    const done = follow({ url, query: {}, auth: undefined }, async () => undefined, () => undefined, stop.signal);
    assert.deepEqual([await requests.take(5000), await requests.take(5000), await requests.take(5000)], ['/t/json', '/t/json?since=1700000000', '/t/json?since=1700000000']);
    stop.abort();
    await done;
  });
});
