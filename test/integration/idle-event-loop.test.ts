import assert from 'node:assert/strict';
import { once } from 'node:events';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { Worker } from 'node:worker_threads';
import { publish } from '../support/clients.js';
import { startTestServer, tempDir, type TestServer } from '../support/server.js';

/**
 * The scheduler's once-a-second scan on the embedded store (issue 39): with many messages
 * scheduled for later, an idle server spends next to nothing on it. Before, each scan was
 * an UPDATE whose OR-condition read every job of a name: about 8 ms of the event loop at
 * 50,000 waiting jobs, once a second, which a light fan-out meets as its p99. The server
 * runs in this process, so what is measured is the server's own. The measure is the CPU
 * time the process used: here 5–8 ms in 3 s, 29–31 ms before. The loop's delay would
 * measure the same stall, but on a shared machine the loop of an idle process with no
 * server at all waits 5–10 ms (60 ms under load) for a core now and then.
 */
const waiting = 50_000;

/** Runs the worker that schedules `count` deliveries for later in `file`; resolves once it is done. */
async function scheduleLater(file: string, count: number): Promise<void> {
  const worker = new Worker(new URL('../support/schedule-later-worker.js', import.meta.url), { workerData: { file, count } });
  const [code] = (await once(worker, 'exit')) as [number];
  assert.equal(code, 0);
}

describe('idle event loop with scheduled jobs waiting (embedded store)', () => {
  let s: TestServer;
  before(async () => {
    const file = join(tempDir(), 'cache.db');
    await scheduleLater(file, waiting);
    s = await startTestServer({ 'cache-file': file, 'message-delay-min': '1s' });
  });
  after(() => s.server.close());

  it(`3 s idle use under 15 ms of CPU with ${waiting.toLocaleString('en')} deliveries waiting, after a delayed message was released on time`, async () => {
    const { status } = await publish(`${s.url}/soon`, 'soon', { 'X-Delay': '1s' });
    assert.equal(status, 200);
    await sleep(2500);
    const polled = await fetch(`${s.url}/soon/json?poll=1`);
    assert.deepEqual((await polled.text()).trim().split('\n').map((line) => (JSON.parse(line) as { message: string }).message), ['soon'], 'released on time');
    await sleep(500); // what follows is the idle loop
    const cpu = process.cpuUsage();
    await sleep(3000);
    const { user, system } = process.cpuUsage(cpu);
    const cpuMs = (user + system) / 1000;
    assert.ok(cpuMs < 15, `the process used ${cpuMs.toFixed(1)} ms of CPU in 3 s idle`);
  });
});
