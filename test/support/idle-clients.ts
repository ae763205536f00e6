import { connect, type Socket } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';

/**
 * Idle subscribers in a thread of their own, so that their sockets are not in the heap of
 * the server under test: opens `count` subscriptions to `/idle/<format>` on `port`, says
 * 'open' once each has had its first bytes (the open event), and ends them on 'close'.
 * Plain TCP with a fixed handshake: a server's WebSocket frames need no client library
 * to be received and ignored.
 */
const { port, format, count } = workerData as { port: number; format: 'ws' | 'sse'; count: number };
const upgrade = format === 'ws' ? 'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n' : '';
const sockets: Socket[] = [];
let open = 0;
for (let i = 0; i < count; i++) {
  const socket = connect({ host: '127.0.0.1', port }, () => socket.write(`GET /idle/${format} HTTP/1.1\r\nHost: 127.0.0.1\r\n${upgrade}\r\n`));
  socket.once('data', () => {
    if (++open === count) parentPort?.postMessage('open');
  });
  socket.on('error', (err) => parentPort?.postMessage(`error: ${err.message}`));
  sockets.push(socket);
}
parentPort?.on('message', () => {
  for (const socket of sockets) socket.destroy();
  parentPort?.close();
});
