import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createConnection, createServer, type AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { TcpProxy } from '../support/tcp-proxy.js';

describe('bench — delaying TCP proxy', () => {
  it('adds its delay each way and keeps the bytes in order', async () => {
    // given: an echo server behind a proxy adding 20 ms each way
    const echo = createServer((socket) => socket.pipe(socket)).listen(0, '127.0.0.1');
    await once(echo, 'listening');
    const proxy = await TcpProxy.start({ host: '127.0.0.1', port: (echo.address() as AddressInfo).port }, { delayMs: 20 });
    const client = createConnection({ host: '127.0.0.1', port: proxy.port });
    await once(client, 'connect');
    try {
      // when: 100 writes go through and back
      const sent = Array.from({ length: 100 }, (_, i) => `${i};`).join('');
      let received = '';
      const start = performance.now();
      const back = new Promise<number>((resolve) =>
        client.on('data', (chunk: Buffer) => {
          received += chunk.toString();
          if (received.length === sent.length) resolve(performance.now() - start);
        }),
      );
      for (let i = 0; i < 100; i++) client.write(`${i};`);
      const roundTrip = await back;
      // then: all of it, in order, after at least the two delays
      assert.equal(received, sent);
      assert.ok(roundTrip >= 39, `round trip ${roundTrip} ms`);
    } finally {
      client.destroy();
      await proxy.stop();
      echo.close();
    }
  });
});
