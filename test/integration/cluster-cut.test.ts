import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { LineStream, publish, WsStream, type Json } from '../support/clients.js';
import { ferretDbSkip, startFerretDb, type FerretDb } from '../support/ferretdb.js';
import { spawnServer } from '../support/server.js';
import { TcpProxy } from '../support/tcp-proxy.js';

/**
 * Three Tocsin processes on one FerretDB, publishing to one topic at once, one of them
 * behind a TCP proxy that cuts its database connections while its commits are in flight:
 * what was acknowledged is stored and delivered once, in one order, and a publish that
 * failed is stored at most once.
 */

let ferret: FerretDb | undefined;
after(() => ferret?.stop());

async function pollAll(url: string, topic: string): Promise<string[]> {
  const text = await (await fetch(`${url}/${topic}/json?poll=1&since=all`)).text();
  return text.split('\n').filter(Boolean).map((line) => (JSON.parse(line) as Json).id as string);
}

/** Message ids from `next` until `count` came (open and keepalive events skipped). */
async function messages(next: () => Promise<Json>, count: number): Promise<string[]> {
  const ids: string[] = [];
  while (ids.length < count) {
    const event = await next();
    if (event.event === 'message') ids.push(event.id as string);
  }
  return ids;
}

describe('three nodes on one MongoDB — database connections cut mid-commit', { skip: ferretDbSkip(), timeout: 180_000 }, () => {
  it('every acknowledged publish is stored once and reaches every subscriber once, in one order; a failed one is stored at most once', async () => {
    // given: nodes A and B on the database, node C behind a proxy, a subscriber on each
    ferret = await startFerretDb();
    const database = ferret.databaseName('cut');
    const port = new URL(ferret.url).port;
    const url = ferret.url.replace('/?', `/${database}?`);
    const proxy = await TcpProxy.start({ host: '127.0.0.1', port: Number(port) });
    after(() => proxy.stop());
    const nodes = [
      await spawnServer(['--database-url', url]),
      await spawnServer(['--database-url', url]),
      await spawnServer(['--database-url', url.replace(`:${port}/`, `:${proxy.port}/`)]),
    ];
    const [a, b, c] = nodes as [(typeof nodes)[0], (typeof nodes)[0], (typeof nodes)[0]];
    const wsOnA = new WsStream(`${a.url}/cut/ws`);
    const wsOnB = new WsStream(`${b.url}/cut/ws`);
    const onC = new LineStream(`${c.url}/cut/json`);
    assert.equal((await wsOnA.next()).event, 'open');
    assert.equal((await wsOnB.next()).event, 'open');
    assert.equal((await onC.nextJson()).event, 'open');

    // when: 4 publishers on each node, 40 publishes each, while C's connections are cut every 100 ms
    const acknowledged: string[] = [];
    const failed: number[] = [];
    let cuts = 0;
    let publishing = true;
    const cutter = (async () => {
      while (publishing) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        cuts += proxy.cut(1) > 0 ? 1 : 0;
      }
    })();
    await Promise.all(nodes.flatMap((node, n) => Array.from({ length: 4 }, async (_, p) => {
      for (let k = 0; k < 40; k++) {
        const { status, json } = await publish(`${node.url}/cut`, `n${n}-p${p}-${k}`).catch(() => ({ status: 0, json: {} as Json }));
        if (status === 200) acknowledged.push(json.id as string);
        else failed.push(status);
      }
    })));
    publishing = false;
    await cutter;

    // then: every acknowledged message is stored once, on every node's poll
    const stored = await pollAll(a.url, 'cut');
    assert.equal(new Set(stored).size, stored.length, 'no message stored twice');
    assert.deepEqual(acknowledged.filter((id) => !stored.includes(id)), [], 'every acknowledged message stored');
    assert.ok(stored.length <= 480 && stored.length >= acknowledged.length);
    assert.deepEqual(await pollAll(c.url, 'cut'), stored);
    // and: every live subscriber got every stored message once, in one order
    const [onAIds, onBIds, onCIds] = await Promise.all([
      messages(() => wsOnA.next(30_000), stored.length),
      messages(() => wsOnB.next(30_000), stored.length),
      messages(() => onC.nextJson(30_000), stored.length),
    ]);
    assert.deepEqual(onBIds, onAIds);
    assert.deepEqual(onCIds, onAIds);
    assert.deepEqual([...onAIds].sort(), [...stored].sort());
    console.log(`# ${acknowledged.length} acknowledged, ${failed.length} failed (${[...new Set(failed)].join(', ') || 'none'}), ${stored.length} stored, ${cuts} cuts of C's connections`);
    assert.ok(cuts >= 3, `${cuts} cuts`);
    assert.ok(failed.every((s) => s === 503 || s === 500 || s === 0), `failures: ${failed.join(', ')}`);
    wsOnA.close();
    wsOnB.close();
    onC.close();
  });
});
