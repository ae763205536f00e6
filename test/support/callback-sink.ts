import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after } from 'node:test';
import { Mailbox, type Json } from './clients.js';

/** An HTTP server on a free 127.0.0.1 port keeping each JSON body POSTed to it, closed when the test file ends. */
export async function callbackSink(): Promise<{ url: string; bodies: Mailbox<Json> }> {
  const bodies = new Mailbox<Json>();
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    req.on('end', () => {
      bodies.put({ method: req.method, type: req.headers['content-type'], body: JSON.parse(text) as Json });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  after(() => {
    server.closeAllConnections();
    server.close();
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/receipt`, bodies };
}
