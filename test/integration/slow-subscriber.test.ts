import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { before, describe, it } from 'node:test';
import { LineStream, publish, WsStream } from '../support/clients.js';
import { startTestServer, type TestServer } from '../support/server.js';

let s: TestServer;
before(async () => {
  s = await startTestServer({ 'subscriber-buffer-limit': '64k' });
});

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

async function fillUntilDropped(topic: string, socket: Socket, before: number): Promise<number> {
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  let done = false;
  void closed.then(() => (done = true));
  const body = 'y'.repeat(3500);
  let sent = 0;
  for (let round = 0; round < 400 && !done && s.server.context.counters.slowSubscribersDropped === before; round++) {
    await Promise.all(Array.from({ length: 20 }, () => publish(`${s.url}/${topic}`, body)));
    sent += 20;
  }
  return sent;
}

describe('slow subscribers', () => {
  for (const [format, upgrade] of [['json', false], ['sse', false], ['ws', true]] as const) {
    it(`${format}: a stalled subscriber is dropped while another keeps receiving`, async () => {
      const topic = `stall-${format}`;
      const healthy = new LineStream(`${s.url}/${topic}/json`);
      assert.equal((await healthy.nextJson()).event, 'open');
      const before = s.server.context.counters.slowSubscribersDropped;
      const heapBefore = process.memoryUsage().heapUsed;
      const stalled = await stalledClient(s.port, `/${topic}/${format}`, upgrade);
      const sent = await fillUntilDropped(topic, stalled, before);
      assert.equal(s.server.context.counters.slowSubscribersDropped, before + 1, `not dropped after ${sent} messages`);
      const heapGrowth = process.memoryUsage().heapUsed - heapBefore;
      assert.ok(heapGrowth < 32 * 1024 * 1024, `heap grew ${heapGrowth} bytes`);
      for (let i = 0; i < sent; i++) await healthy.nextJson();
      await publish(`${s.url}/${topic}`, 'after the drop');
      assert.equal((await healthy.nextJson()).message, 'after the drop');
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
