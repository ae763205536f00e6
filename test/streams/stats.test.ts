import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import { Stats } from '../../src/streams/stats.js';
import { tempDir } from '../support/server.js';

describe('stats — nodes sharing a cache', () => {
  it('each node adds what it published since its last save and shows the stored total plus its unsaved part', async () => {
    const file = join(tempDir(), 'cache.db');
    const [storeA, storeB] = [openSqliteStore(file), openSqliteStore(file)];
    after(() => Promise.all([storeA.close(), storeB.close()]));
    await storeA.cache.addStats(100);
    const published = { a: 0, b: 0 };
    const a = new Stats(storeA.cache, await storeA.cache.loadStats(), () => published.a, 60);
    const b = new Stats(storeB.cache, await storeB.cache.loadStats(), () => published.b, 60);
    published.a = 3;
    published.b = 5;
    assert.deepEqual([a.messages, b.messages], [103, 105], 'the unsaved part shows at once');
    await a.save();
    assert.deepEqual([a.messages, b.messages, await storeA.cache.loadStats()], [103, 105, 103]);
    await b.save();
    assert.deepEqual([a.messages, b.messages, await storeA.cache.loadStats()], [103, 108, 108], 'b read back a\'s part with its own');
    published.a = 4;
    await a.save();
    assert.deepEqual([a.messages, await storeA.cache.loadStats()], [109, 109], 'a saved its one new publish, not its 4 again');
  });

  it('saves running at once add each publish once', async () => {
    const store = openSqliteStore(join(tempDir(), 'cache.db'));
    after(() => store.close());
    let published = 7;
    const stats = new Stats(store.cache, 0, () => published, 60);
    const first = stats.save();
    published = 9;
    await Promise.all([first, stats.save(), stats.save()]);
    assert.deepEqual([stats.messages, await store.cache.loadStats()], [9, 9]);
  });

  it('a failed save leaves its publishes for the next one', async () => {
    const store = openSqliteStore(join(tempDir(), 'cache.db'));
    after(() => store.close());
    let failing = true;
    const cache = { addStats: (n: number): Promise<number> => (failing ? Promise.reject(new Error('disk full')) : store.cache.addStats(n)) };
    const stats = new Stats(cache, 0, () => 4, 60);
    await assert.rejects(stats.save(), /disk full/);
    assert.equal(stats.messages, 4);
    failing = false;
    await stats.save();
    assert.deepEqual([stats.messages, await store.cache.loadStats()], [4, 4]);
  });

  it('the rate is the growth of the total over the sampled ticks', async () => {
    const store = openSqliteStore('');
    after(() => store.close());
    let published = 0;
    const stats = new Stats(store.cache, 0, () => published, 10, 3);
    assert.equal(stats.rate, 0);
    for (const count of [0, 20, 40, 100]) {
      published = count;
      stats.sample();
    }
    assert.equal(stats.rate, (100 - 20) / (2 * 10), 'over the last three samples');
  });
});
