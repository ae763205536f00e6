import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { LineStream, SseStream, WsStream, type Json } from '../support/clients.js';
import { spawnServer, tempDir, type ChildServer } from '../support/server.js';

const publishers = 4;
/** Enough acknowledged publishes that the batcher has commits in flight when SIGTERM lands. */
const ackedBeforeSigterm = 300;

/** Publishes to `topic` in a loop until the server stops answering; collects the ids answered 200. */
async function publishUntilGone(server: ChildServer, topic: string, acked: string[], onAck: () => void): Promise<void> {
  for (let i = 0; ; i++) {
    try {
      const res = await fetch(`${server.url}/${topic}`, { method: 'POST', body: `m${i}` });
      // A refusal while closing is fine; only a 200 promises the message is kept.
      if (res.status !== 200) continue;
      acked.push(String(((await res.json()) as Json).id));
      onAck();
    } catch {
      return; // the listener is closed or the process gone
    }
  }
}

describe('shutdown — SIGTERM under load', () => {
  it('every acknowledged publish is kept, every open stream ends cleanly, and the process exits 0', async () => {
    const file = join(tempDir(), 'cache.db');
    const server = await spawnServer(['--cache-file', file]);
    const json = new LineStream(`${server.url}/load/json`);
    const sse = new SseStream(`${server.url}/load/sse`);
    const ws = new WsStream(`${server.url}/load/ws`);
    assert.equal((await json.nextJson()).event, 'open');
    assert.equal((await sse.next()).event, 'open');
    assert.equal((await ws.next()).event, 'open');

    const acked: string[] = [];
    let loaded!: () => void;
    const underLoad = new Promise<void>((resolve) => (loaded = resolve));
    const onAck = (): void => {
      if (acked.length === ackedBeforeSigterm) loaded();
    };
    const loops = Array.from({ length: publishers }, () => publishUntilGone(server, 'load', acked, onAck));
    await underLoad;
    server.child.kill('SIGTERM');

    await json.end();
    await sse.end();
    assert.equal(json.failure, undefined, 'the json stream ended with its final chunk');
    assert.equal(sse.failure, undefined, 'the sse stream ended with its final chunk');
    assert.equal(await ws.waitClosed(), 1001);
    assert.equal(await server.exited, 0);
    await Promise.all(loops);

    const again = await spawnServer(['--cache-file', file]);
    const text = await (await fetch(`${again.url}/load/json?poll=1&since=all`)).text();
    const stored = new Set(text.trimEnd().split('\n').map((line) => String((JSON.parse(line) as Json).id)));
    const lost = acked.filter((id) => !stored.has(id));
    assert.deepEqual(lost, [], `${lost.length} of ${acked.length} acknowledged publishes lost`);
    again.child.kill('SIGTERM');
    assert.equal(await again.exited, 0);
  });
});
