/**
 * What the SQLite cache costs a publish, without HTTP: `add` in batches (as the group
 * commit makes them) to one topic or many on a fresh file, then the cache reopened, which
 * fills its indexes in memory from the file (memory-indexes.ts). Prints CPU and wall time
 * per message and the reopen's time and memory (one JSON line too).
 *
 *   npm run build && node dist/bench/cache-add.js                     300,000 to 1 and to 10,000 topics
 *   node dist/bench/cache-add.js --messages 1000000 --topics 1000 --batch 32
 *
 * With `--gap MS`, after those adds it times 300 more one batch at a time, each after the
 * last with only a turn of the event loop between them, and then 300 each after MS of an idle
 * process, as a lone publish meets the cache: p50 and p90 wall time of one add (issue 39:
 * after an idle gap the same add costs several times what it costs back to back).
 *
 *   node dist/bench/cache-add.js --messages 20000 --topics 1 --batch 1 --gap 20
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { messageJson, nowSeconds, randomId, type Message } from '../src/model/message.js';
import type { CacheEntry, MessageCache } from '../src/store/message-cache.js';
import { openSqliteStore } from '../src/store/sqlite/store.js';

const { values } = parseArgs({
  options: { messages: { type: 'string', default: '300000' }, topics: { type: 'string', default: '1,10000' }, batch: { type: 'string', default: '32' }, gap: { type: 'string', default: '0' } },
});
const [count, batch, gapMs] = [Number(values.messages), Number(values.batch), Number(values.gap)];
/** Adds timed after an idle gap (--gap). */
const spacedAdds = 300;

/** A batch of publishes as the publisher hands them over: ntfy's JSON, bodies of 60 bytes. */
function entries(topics: number, now: number): CacheEntry[] {
  return Array.from({ length: batch }, () => {
    const message: Message = { id: randomId(), time: now, expires: now + 43_200, event: 'message', topic: `bench${Math.floor(Math.random() * topics)}`, message: 'x'.repeat(60) };
    return { message, json: messageJson(message), published: true };
  });
}

for (const topics of values.topics.split(',').map(Number)) {
  const dir = mkdtempSync(join(tmpdir(), 'tocsin-cache-add-'));
  const file = join(dir, 'cache.db');
  const store = openSqliteStore(file);
  const now = nowSeconds();
  const [cpu, start] = [process.cpuUsage(), performance.now()];
  for (let added = 0; added < count; added += batch) await store.cache.add(entries(topics, now));
  const [used, wall] = [process.cpuUsage(cpu), performance.now() - start];
  const spaced = gapMs > 0 ? { adjacent: await addSpaced(store.cache, topics, now, 0), idle: await addSpaced(store.cache, topics, now, gapMs) } : undefined;
  await store.close();
  const [rss, opening] = [process.memoryUsage().rss, performance.now()];
  const reopened = openSqliteStore(file);
  const [openMs, openRss] = [performance.now() - opening, process.memoryUsage().rss - rss];
  await reopened.close();
  rmSync(dir, { recursive: true, force: true });
  const figures = {
    messages: count,
    topics,
    batch,
    cpuMicrosPerMessage: (used.user + used.system) / count,
    wallMicrosPerMessage: (1000 * wall) / count,
    reopenMs: openMs,
    reopenRssMB: openRss / 1e6,
    ...(spaced && { gapMs, adjacentWallMicros: spaced.adjacent, idleWallMicros: spaced.idle }),
  };
  console.log(
    `${count.toLocaleString('en')} messages to ${topics.toLocaleString('en')} topic(s), batches of ${batch}: ` +
      `${figures.cpuMicrosPerMessage.toFixed(1)} µs CPU and ${figures.wallMicrosPerMessage.toFixed(1)} µs wall a message; ` +
      `reopened in ${openMs.toFixed(0)} ms (+${figures.reopenRssMB.toFixed(0)} MB RSS)` +
      (spaced ? `; one add right after the last: p50 ${spaced.adjacent.p50.toFixed(0)} µs, p90 ${spaced.adjacent.p90.toFixed(0)} µs wall; ${gapMs} ms after: p50 ${spaced.idle.p50.toFixed(0)} µs, p90 ${spaced.idle.p90.toFixed(0)} µs` : ''),
  );
  console.log(JSON.stringify({ scenario: 'cache-add', ...figures }));
}

/** Wall time of single adds, each after `idleMs` of an idle process (0: a turn): p50 and p90 in µs. */
async function addSpaced(cache: MessageCache, topics: number, now: number, idleMs: number): Promise<{ p50: number; p90: number }> {
  const took: number[] = [];
  for (let i = 0; i < spacedAdds; i++) {
    await new Promise((resolve) => (idleMs > 0 ? setTimeout(resolve, idleMs) : setImmediate(resolve)));
    const next = entries(topics, now);
    const start = performance.now();
    await cache.add(next);
    took.push(1000 * (performance.now() - start));
  }
  took.sort((a, b) => a - b);
  return { p50: took[Math.floor(spacedAdds / 2)] as number, p90: took[Math.floor(spacedAdds * 0.9)] as number };
}
