import { workerData } from 'node:worker_threads';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import { Scheduler } from '../../src/streams/scheduler.js';

/**
 * Schedules `count` deliveries an hour from now in the embedded store at `file`, through
 * the scheduler as a publish does, in a thread of its own so that its heap and timers are
 * not the measured server's.
 */
const { file, count } = workerData as { file: string; count: number };
const store = openSqliteStore(file);
const scheduler = new Scheduler(store.jobs, { release: async () => undefined, housekeeping: async () => undefined }, { housekeepingEveryMs: 3_600_000, onError: (err) => { throw err; } });
await scheduler.start();
const at = Date.now() + 3_600_000;
for (let n = 0; n < count; n++) await scheduler.deliverAt(`later${n}`, new Date(at + n));
await scheduler.stop();
await store.close();
