import assert from 'node:assert/strict';
import { it } from 'node:test';
import { dropRecordMinSeconds, type MessageCache } from '../../../src/store/message-cache.js';
import { entry, gapOf, message, now } from './cache-messages.js';

/** A cache that keeps its dropped-message records in a table, and a count of that table's rows. */
export interface WithDropRecords {
  cache: MessageCache;
  rows(): Promise<number>;
}

/**
 * The bound of the per-topic records of dropped messages (SQLite's and PostgreSQL's
 * topic_drops): one row per topic however many it dropped, forgotten by the prune once
 * kept as long again as the newest dropped lived in the cache, an hour at least.
 */
export function itBoundsDropRecords(open: () => Promise<WithDropRecords>): void {
  it('drop records — one row per topic, forgotten by the prune as long again as the message lived after it (an hour at least)', async () => {
    const { cache, rows } = await open();
    // Each lived 2 h (expired at now-1): remembered until 2 h after, now-1+7200.
    const lived = { time: now - 7201, expires: now - 1 };
    await cache.add([message('drops-many', lived), message('drops-many', lived), message('drops-many', lived), message('drops-one', lived)].map((m) => entry(m)));
    assert.equal(await cache.prune(now), 4);
    assert.equal(await rows(), 2);
    assert.equal(await cache.prune(now + 7198), 0);
    assert.deepEqual([await rows(), await gapOf(cache, 'drops-many', { kind: 'time', time: now - 8000 })], [2, true]);
    await cache.prune(now + 7199);
    assert.deepEqual([await rows(), await gapOf(cache, 'drops-many', { kind: 'time', time: now - 8000 })], [0, false]);
  });

  it('drop records — a message that lived a second is remembered for an hour', async () => {
    const { cache, rows } = await open();
    await cache.add([entry(message('drops-brief', { time: now - 2, expires: now - 1 }))]);
    assert.equal(await cache.prune(now), 1);
    await cache.prune(now - 1 + dropRecordMinSeconds - 1);
    assert.deepEqual([await rows(), await gapOf(cache, 'drops-brief', { kind: 'time', time: now - 10 })], [1, true]);
    await cache.prune(now - 1 + dropRecordMinSeconds);
    assert.equal(await rows(), 0);
  });
}
