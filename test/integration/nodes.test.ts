import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { publish, type Json } from '../support/clients.js';
import { startTestServer, tempDir, type TestServer } from '../support/server.js';

/** Several nodes on one cache file, as a deployment of several Tocsin processes shares its store. */

const statsOf = async (t: TestServer): Promise<number> => ((await (await fetch(`${t.url}/v1/stats`)).json()) as Json).messages as number;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A node on `settings`, closed when the file ends if the test did not close it (close is idempotent). */
async function node(settings: Record<string, string>): Promise<TestServer> {
  const t = await startTestServer(settings);
  after(() => t.server.close());
  return t;
}

async function publishSome(t: TestServer, topic: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) assert.equal((await publish(`${t.url}/${topic}`, `m${i}`)).status, 200);
}

describe('nodes on one cache file', () => {
  it('stats: each node adds its publishes to the stored total, so none overwrites another\'s', async () => {
    const file = join(tempDir(), 'cache.db');
    const [a, b] = [await node({ 'cache-file': file }), await node({ 'cache-file': file })];
    await publishSome(a, 'on-a', 3);
    await publishSome(b, 'on-b', 2);
    assert.deepEqual([await statsOf(a), await statsOf(b)], [3, 2], 'each shows the stored total and its own unsaved part');
    await a.server.close(); // saves 3
    await b.server.close(); // adds 2: saving its own view (2) would have overwritten a's
    const c = await node({ 'cache-file': file });
    assert.equal(await statsOf(c), 5);
    await publishSome(c, 'on-c', 1);
    await c.server.close();
    const d = await node({ 'cache-file': file });
    assert.equal(await statsOf(d), 6, 'a restart keeps the total');
  });

  it('every node runs its own housekeeping: each forgets its idle topics and reads back the others\' publishes', async () => {
    const file = join(tempDir(), 'cache.db');
    const settings = { 'cache-file': file, 'cache-duration': '1s', 'manager-interval': '1s' };
    const [a, b] = [await node(settings), await node(settings)];
    await publishSome(a, 'on-a', 2);
    await publishSome(b, 'on-b', 3);
    assert.deepEqual([a.server.context.topics.size, b.server.context.topics.size], [1, 1]);
    await sleep(3500); // three ticks of each node's timer
    assert.deepEqual([a.server.context.topics.size, b.server.context.topics.size], [0, 0], 'idle topics pruned on both nodes');
    assert.deepEqual([await statsOf(a), await statsOf(b)], [5, 5]);
  });
});
