import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { publish } from '../support/clients.js';
import { freshDatabase, postgresSkip } from '../support/postgres.js';
import { serveUntilExit, spawnServer, type ChildServer } from '../support/server.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { describeCluster } from './cluster-cases.js';

/** Tocsin processes on one PostgreSQL database (Debian's server, started by the test). */
describeCluster('PostgreSQL', { freshDatabase, skip: postgresSkip() });

describe('startup — database-url on PostgreSQL', { skip: postgresSkip() }, () => {
  it('a database-shards other than the database\'s stops the start, naming both; 0 takes the database\'s', async () => {
    const url = await freshDatabase('shards');
    const first = await spawnServer(['--database-url', url, '--database-shards', '4']);
    first.child.kill();
    await first.exited;
    const { code, stderr } = await serveUntilExit(['--database-url', url, '--database-shards', '2']);
    assert.equal(code, 1);
    assert.match(stderr, /: database-shards is 2, but the database's messages are in 4 logs: topics are placed by that count, so it cannot change; set database-shards to 4, or to 0 to take the database's\n$/);
    const again = await spawnServer(['--database-url', url]);
    assert.equal((await publish(`${again.url}/shards`, 'in its log')).status, 200);
    again.child.kill();
  });

  it('a database that cannot be reached stops the start, naming the URL without its password', async () => {
    const { code, stderr } = await serveUntilExit(['--database-url', 'postgres://tocsin:secret@/tocsin?host=/nonexistent-tocsin-socket-dir&port=5432']);
    assert.equal(code, 1);
    assert.match(stderr, /^tocsin: database-url postgres:\/\/…@\/tocsin\?host=\/nonexistent-tocsin-socket-dir&port=5432: connect ENOENT /);
  });
});

describe('a node whose PostgreSQL is out of reach', { skip: postgresSkip(), timeout: 60_000 }, () => {
  /** A node reaching a fresh database through a proxy the test can cut or freeze, and its socket's URL. */
  async function proxiedNode(label: string): Promise<{ node: ChildServer; proxy: TcpProxy }> {
    // The test cluster's URL names its socket's directory: postgres://postgres@/NAME?host=DIR&port=5432
    const [, name, dir] = /^postgres:\/\/postgres@\/(\w+)\?host=([^&]+)/.exec(await freshDatabase(label)) as string[];
    const proxy = await TcpProxy.start({ path: `${decodeURIComponent(dir as string)}/.s.PGSQL.5432` });
    after(() => proxy.stop());
    const node = await spawnServer(['--database-url', `postgres://postgres@127.0.0.1:${proxy.port}/${name as string}`]);
    after(() => {
      node.child.kill();
    });
    return { node, proxy };
  }

  /** The messages of `topic` a poll of `node` answers, once it answers 200 again (within 5 s). */
  async function messagesOnceBack(node: ChildServer, topic: string): Promise<string[]> {
    for (let tries = 0; ; tries++) {
      const res = await fetch(`${node.url}/${topic}/json?poll=1`);
      if (res.status === 200) return (await res.text()).split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { message: string }).message);
      assert.ok(tries < 50, `still ${res.status}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it('down (connections cut and refused): publishes answer 503/50301 and polls 503 at once; back, nothing lost', async () => {
    const { node, proxy } = await proxiedNode('down');
    assert.equal((await publish(`${node.url}/down`, 'before')).status, 200);
    proxy.refusing = true;
    proxy.cut();
    const refused = await publish(`${node.url}/down`, 'during');
    assert.deepEqual([refused.status, refused.json.code], [503, 50301]);
    assert.equal((await fetch(`${node.url}/down/json?poll=1`)).status, 503);
    proxy.refusing = false;
    assert.deepEqual(await messagesOnceBack(node, 'down'), ['before']);
    assert.equal((await publish(`${node.url}/down`, 'after')).status, 200);
    assert.deepEqual(await messagesOnceBack(node, 'down'), ['before', 'after']);
  });

  it('stuck (a frozen network): a publish answers 503/50301 within the 10 s query timeout; thawed, the node serves again', async () => {
    const { node, proxy } = await proxiedNode('stuck');
    assert.equal((await publish(`${node.url}/stuck`, 'before')).status, 200);
    proxy.freeze();
    const started = performance.now();
    const stuck = await publish(`${node.url}/stuck`, 'during');
    const waited = performance.now() - started;
    assert.deepEqual([stuck.status, stuck.json.code], [503, 50301]);
    assert.ok(waited < 12_000, `answered after ${Math.round(waited)} ms`);
    proxy.thaw();
    assert.equal((await messagesOnceBack(node, 'stuck'))[0], 'before');
    let again = await publish(`${node.url}/stuck`, 'after');
    for (let tries = 0; again.status !== 200 && tries < 50; tries++) again = await publish(`${node.url}/stuck`, 'after');
    assert.equal(again.status, 200);
  });
});
