import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { MessageCache } from '../../../src/store/message-cache.js';
import { entry, gapOf, message, now } from './cache-messages.js';

/** A cache that keeps its dropped-message records in a table, and a count of that table's rows. */
export interface WithDropRecords {
  cache: MessageCache;
  rows(): Promise<number>;
}

/**
 * The bound of the per-topic records of dropped messages (SQLite's and PostgreSQL's
 * topic_drops): one row per topic however many it dropped, forgotten by the prune once
 * kept as long again as the newest dropped lived in the cache.
 */
export function itBoundsDropRecords(open: () => Promise<WithDropRecords>): void {
  it('drop records — one row per topic, forgotten by the prune as long again as the message lived after it', async () => {
    const { cache, rows } = await open();
    // Each lived 99 s (time now-100, expired at now-1): remembered until now+98.
    const lived = { time: now - 100, expires: now - 1 };
    await cache.add([message('drops-many', lived), message('drops-many', lived), message('drops-many', lived), message('drops-one', lived)].map((m) => entry(m)));
    assert.equal(await cache.prune(now), 4);
    assert.equal(await rows(), 2);
    assert.equal(await cache.prune(now + 97), 0);
    assert.deepEqual([await rows(), await gapOf(cache, 'drops-many', { kind: 'time', time: now - 200 })], [2, true]);
    await cache.prune(now + 98);
    assert.deepEqual([await rows(), await gapOf(cache, 'drops-many', { kind: 'time', time: now - 200 })], [0, false]);
  });
}
