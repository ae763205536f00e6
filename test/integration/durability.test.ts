import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { publish, type Json } from '../support/clients.js';
import { spawnServer, tempDir } from '../support/server.js';

const pollIds = async (url: string, topic: string): Promise<string[]> => {
  const text = await (await fetch(`${url}/${topic}/json?poll=1`)).text();
  return text === '' ? [] : text.trimEnd().split('\n').map((l) => String((JSON.parse(l) as Json).id));
};

describe('durability — cache-file', () => {
  it('a restart keeps cached messages', async () => {
    const file = join(tempDir(), 'cache.db');
    const first = await spawnServer(['--cache-file', file]);
    const { json } = await publish(`${first.url}/keep`, 'survives restarts');
    first.child.kill('SIGTERM');
    assert.equal(await first.exited, 0);
    const second = await spawnServer(['--cache-file', file]);
    assert.deepEqual(await pollIds(second.url, 'keep'), [json.id]);
    second.child.kill('SIGTERM');
    assert.equal(await second.exited, 0);
  });

  it('every acknowledged message survives SIGKILL during a burst of concurrent publishes', async () => {
    const file = join(tempDir(), 'cache.db');
    const server = await spawnServer(['--cache-file', file]);
    const acked: string[] = [];
    let stop = false;
    const worker = async (w: number): Promise<void> => {
      for (let i = 0; !stop; i++) {
        try {
          const res = await fetch(`${server.url}/burst`, { method: 'POST', body: `w${w} m${i}` });
          if (res.status === 200) acked.push(String(((await res.json()) as Json).id));
        } catch {
          return; // the server is gone
        }
      }
    };
    const workers = Array.from({ length: 32 }, (_, w) => worker(w));
    while (acked.length < 500) await new Promise((resolve) => setImmediate(resolve));
    server.child.kill('SIGKILL');
    stop = true;
    await Promise.all(workers);
    assert.equal(await server.exited, 'SIGKILL');
    const restarted = await spawnServer(['--cache-file', file]);
    const stored = new Set(await pollIds(restarted.url, 'burst'));
    const lost = acked.filter((id) => !stored.has(id));
    assert.deepEqual(lost, [], `${lost.length} of ${acked.length} acknowledged messages lost`);
    restarted.child.kill('SIGTERM');
    await restarted.exited;
  });
});

describe('shutdown', () => {
  it('SIGTERM ends open streams cleanly, commits what was accepted, and exits 0', async () => {
    const file = join(tempDir(), 'cache.db');
    const server = await spawnServer(['--cache-file', file]);
    const { LineStream, WsStream } = await import('../support/clients.js');
    const stream = new LineStream(`${server.url}/bye/json`);
    const ws = new WsStream(`${server.url}/bye/ws`);
    assert.equal((await stream.nextJson()).event, 'open');
    assert.equal((await ws.next()).event, 'open');
    const { json } = await publish(`${server.url}/bye`, 'last words');
    assert.equal((await stream.nextJson()).id, json.id);
    server.child.kill('SIGTERM');
    await stream.end();
    assert.equal(await ws.waitClosed(), 1001);
    assert.equal(await server.exited, 0);
    const again = await spawnServer(['--cache-file', file]);
    assert.deepEqual(await pollIds(again.url, 'bye'), [json.id]);
    again.child.kill('SIGTERM');
    await again.exited;
  });

  it('a bad config value stops startup with a message naming the key and the value', async () => {
    await assert.rejects(spawnServer(['--cache-duration', 'forever']), /invalid value for cache-duration: "forever"/);
  });
});

describe('ordering — concurrent publishers', () => {
  it('every subscriber sees each publisher’s messages in order, live and in replay', async () => {
    const server = await spawnServer([]);
    const { LineStream } = await import('../support/clients.js');
    const stream = new LineStream(`${server.url}/order/json`);
    assert.equal((await stream.nextJson()).event, 'open');
    const publishers = 8;
    const perPublisher = 50;
    await Promise.all(
      Array.from({ length: publishers }, async (_, p) => {
        for (let i = 0; i < perPublisher; i++) await publish(`${server.url}/order`, `${p}:${i}`);
      }),
    );
    const live: string[] = [];
    for (let i = 0; i < publishers * perPublisher; i++) live.push(String((await stream.nextJson()).message));
    stream.close();
    const replay = (await (await fetch(`${server.url}/order/json?poll=1`)).text()).trimEnd().split('\n').map((l) => String((JSON.parse(l) as Json).message));
    for (const seen of [live, replay]) {
      for (let p = 0; p < publishers; p++) {
        const mine = seen.filter((m) => m.startsWith(`${p}:`)).map((m) => Number(m.split(':')[1]));
        assert.deepEqual(mine, Array.from({ length: perPublisher }, (_, i) => i));
      }
    }
    assert.deepEqual(replay, live);
  });
});
