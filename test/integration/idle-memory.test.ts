import assert from 'node:assert/strict';
import { once } from 'node:events';
import { after, before, describe, it } from 'node:test';
import { Worker } from 'node:worker_threads';
import { startTestServer, type TestServer } from '../support/server.js';
import { until } from '../support/wait.js';

let s: TestServer;
before(async () => {
  s = await startTestServer();
});
after(() => s.server.close());

const gc = (globalThis as { gc?: () => void }).gc;

/** This process's heap after a full collection (tests run with --expose-gc). */
function heapUsed(): number {
  if (!gc) throw new Error('run with node --expose-gc');
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** Opens `count` idle subscriptions from another thread (whose heap is its own); resolves once all are open. */
async function openIdle(format: 'ws' | 'sse', count: number): Promise<Worker> {
  const clients = new Worker(new URL('../support/idle-clients.js', import.meta.url), { workerData: { port: s.port, format, count } });
  const [said] = (await once(clients, 'message')) as [string];
  assert.equal(said, 'open');
  return clients;
}

async function closeIdle(clients: Worker): Promise<void> {
  const exited = once(clients, 'exit');
  clients.postMessage('close');
  await exited;
  await until(() => s.server.context.connections.size === 0, 'the idle connections closed', { timeoutMs: 60_000, everyMs: 1 });
}

describe('idle subscriptions — heap per subscription', () => {
  // Here 1.0–1.1 KB (WebSocket) and 1.3 KB (SSE) each, 1.9 and 3.3 KB before issue 22's
  // idle work (0.66 and 1.1 KB at 10,000 in the bench, bench/README.md). The budgets leave
  // room for a field or two, not for a pipeline, a set of closures or a request held per subscription.
  const budgets = { ws: 1.5, sse: 2.0 };
  for (const format of ['ws', 'sse'] as const) {
    it(`${format}: 1,000 live idle subscriptions hold under ${budgets[format]} KB of the server's heap each`, async () => {
      await closeIdle(await openIdle(format, 200)); // compiled code and grown tables are not per subscription
      const before = heapUsed();
      const clients = await openIdle(format, 1000);
      await until(() => s.server.context.connections.size === 1000, '1,000 connections open', { timeoutMs: 60_000, everyMs: 1 });
      const perSubscription = (heapUsed() - before) / 1000 / 1024;
      await closeIdle(clients);
      assert.ok(perSubscription < budgets[format], `${perSubscription.toFixed(2)} KB per ${format} subscription`);
      assert.ok(perSubscription > 0.1, `${perSubscription.toFixed(2)} KB: the subscriptions were not measured`);
    });
  }
});
