import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { LineStream, publish, WsStream } from '../support/clients.js';
import { startTestServer, type TestServer } from '../support/server.js';

let s: TestServer;
before(async () => {
  s = await startTestServer({ 'subscriber-buffer-limit': '64k' });
});
after(() => s.server.close());

/** A subscriber that sends its request and then never reads: the kernel buffers fill up. */
function stalledClient(port: number, path: string, upgrade = false): Promise<Socket> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port }, () => {
      const headers = upgrade
        ? 'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n'
        : '';
      socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\n${headers}\r\n`);
      socket.pause();
      resolve(socket);
    });
    socket.setNoDelay(true);
  });
}

/**
 * Publishes until the server drops the stalled subscriber. The kernel's socket buffers
 * take the first few megabytes, so it takes a while; the heap is checked all along: the
 * server must hold no more than the subscriber's limit for it.
 */
async function fillUntilDropped(topic: string, before: number, sample: () => void): Promise<number> {
  const body = 'y'.repeat(3500);
  let sent = 0;
  for (let round = 0; round < 400 && s.server.context.counters.slowSubscribersDropped === before; round++) {
    await Promise.all(Array.from({ length: 20 }, () => publish(`${s.url}/${topic}`, body)));
    sent += 20;
    if (round % 20 === 0) sample();
  }
  return sent;
}

/** The test command runs node with --expose-gc, so the heap is measured without garbage. */
function heapAfterGc(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  assert.equal(typeof gc, 'function', 'run the tests with node --expose-gc');
  gc?.();
  return process.memoryUsage().heapUsed;
}

describe('slow subscribers', () => {
  for (const [format, upgrade] of [['json', false], ['sse', false], ['ws', true]] as const) {
    it(`${format}: a stalled subscriber is dropped while another keeps receiving`, async () => {
      const topic = `stall-${format}`;
      const healthy = new LineStream(`${s.url}/${topic}/json`);
      assert.equal((await healthy.nextJson()).event, 'open');
      let received = 0;
      const reading = (async () => {
        while ((await healthy.nextJson()).message !== 'after the drop') received++;
      })();
      const before = s.server.context.counters.slowSubscribersDropped;
      const heapBefore = heapAfterGc();
      const stalled = await stalledClient(s.port, `/${topic}/${format}`, upgrade);
      let heapPeak = 0;
      const sent = await fillUntilDropped(topic, before, () => (heapPeak = Math.max(heapPeak, heapAfterGc())));
      // Megabytes went to the stalled client; the heap may hold its 64 KB limit, not that.
      assert.ok(heapPeak - heapBefore < 8 * 1024 * 1024, `heap grew by ${heapPeak - heapBefore} bytes`);
      assert.equal(s.server.context.counters.slowSubscribersDropped, before + 1, `not dropped after ${sent} messages`);
      await publish(`${s.url}/${topic}`, 'after the drop');
      await reading;
      assert.equal(received, sent);
      healthy.close();
      stalled.destroy();
    });
  }

  it('a fast WebSocket subscriber on the same topic is not affected', async () => {
    const ws = new WsStream(`${s.url}/stall-ws/ws`);
    assert.equal((await ws.next()).event, 'open');
    await publish(`${s.url}/stall-ws`, 'still flowing');
    assert.equal((await ws.next()).message, 'still flowing');
    ws.close();
  });
});
