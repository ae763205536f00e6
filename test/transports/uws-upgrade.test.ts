import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, it } from 'node:test';
import WebSocket from 'ws';

/**
 * tools/patch-uws.mjs's second fix, in a process of its own so its stderr is its own: a
 * WebSocket upgrade made after an await and outside res.cork (as src/transports/subscribe/ws.ts
 * makes every upgrade, uWebSockets#1928) opens, delivers what `open` sends, and makes uWS print
 * nothing.
 */
const app = `
const uWS = require('uWebSockets.js');
uWS.App().ws('/*', {
  upgrade: (res, req, context) => {
    const headers = ['sec-websocket-key', 'sec-websocket-protocol', 'sec-websocket-extensions'].map((h) => req.getHeader(h));
    res.onAborted(() => { res.gone = true; });
    setImmediate(() => res.gone || res.upgrade({}, ...headers, context));
  },
  open: (ws) => { ws.send('opened'); },
}).listen('127.0.0.1', 0, (socket) => console.log(uWS.us_socket_local_port(socket)));
`;

describe('uWebSockets.js as patched by tools/patch-uws.mjs', () => {
  it('upgrades after an await without cork: 200 sockets open and get their first frame, and stderr stays empty', async () => {
    const child = spawn(process.execPath, ['-e', app], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    try {
      const [line] = (await once(child.stdout, 'data')) as [Buffer];
      const port = Number(line.toString().trim());
      const first = await Promise.all(
        Array.from(
          { length: 200 },
          () =>
            new Promise<string>((resolve) => {
              const ws = new WebSocket(`ws://127.0.0.1:${port}/t/ws`);
              ws.on('message', (data: Buffer) => {
                resolve(data.toString());
                ws.close();
              });
              ws.on('close', (code) => resolve(`closed ${code}`));
              ws.on('error', (err) => resolve(`error ${err.message}`));
            }),
        ),
      );
      assert.deepEqual(new Set(first), new Set(['opened']));
      assert.equal(stderr, '');
    } finally {
      child.kill();
    }
  });
});
