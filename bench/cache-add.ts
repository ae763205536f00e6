/**
 * What the SQLite cache costs a publish, without HTTP: `add` in batches (as the group
 * commit makes them) to one topic or many on a fresh file, then the cache reopened, which
 * fills its indexes in memory from the file (memory-indexes.ts). Prints CPU and wall time
 * per message and the reopen's time and memory (one JSON line too).
 *
 *   npm run build && node dist/bench/cache-add.js                     300,000 to 1 and to 10,000 topics
 *   node dist/bench/cache-add.js --messages 1000000 --topics 1000 --batch 32
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { messageJson, nowSeconds, randomId, type Message } from '../src/model/message.js';
import type { CacheEntry } from '../src/store/message-cache.js';
import { openSqliteStore } from '../src/store/sqlite/store.js';

const { values } = parseArgs({
  options: { messages: { type: 'string', default: '300000' }, topics: { type: 'string', default: '1,10000' }, batch: { type: 'string', default: '32' } },
});
const [count, batch] = [Number(values.messages), Number(values.batch)];

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
  };
  console.log(
    `${count.toLocaleString('en')} messages to ${topics.toLocaleString('en')} topic(s), batches of ${batch}: ` +
      `${figures.cpuMicrosPerMessage.toFixed(1)} µs CPU and ${figures.wallMicrosPerMessage.toFixed(1)} µs wall a message; ` +
      `reopened in ${openMs.toFixed(0)} ms (+${figures.reopenRssMB.toFixed(0)} MB RSS)`,
  );
  console.log(JSON.stringify({ scenario: 'cache-add', ...figures }));
}
