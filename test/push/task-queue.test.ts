import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TaskQueue } from '../../src/push/task-queue.js';
import { LogCapture } from '../support/log.js';

/** A task that runs until `finish` is called. */
function gate(): { task: () => Promise<void>; started: boolean; finish: () => void } {
  const g = { started: false, finish: (): void => undefined, task: (): Promise<void> => Promise.resolve() };
  g.task = () => {
    g.started = true;
    return new Promise<void>((resolve) => (g.finish = resolve));
  };
  return g;
}

describe('task queue', () => {
  it('runs at most `concurrency` tasks at once, the others in order as they finish', async () => {
    const log = new LogCapture();
    const queue = new TaskQueue(log.logger, { name: 't', concurrency: 2, limit: 10 });
    const tasks = [gate(), gate(), gate(), gate()];
    for (const t of tasks) queue.push(t.task);
    assert.deepEqual(tasks.map((t) => t.started), [false, false, false, false], 'push only queues');
    await new Promise(setImmediate);
    assert.deepEqual(tasks.map((t) => t.started), [true, true, false, false], 'a later turn starts as many as may run');
    tasks[1]?.finish();
    await new Promise(setImmediate);
    assert.deepEqual(tasks.map((t) => t.started), [true, true, true, false]);
    const settled = queue.settled();
    for (const t of tasks) t.finish();
    await new Promise(setImmediate);
    tasks[3]?.finish();
    await settled;
    assert.deepEqual(tasks.map((t) => t.started), [true, true, true, true]);
  });

  it('drops tasks past `limit` waiting, counts them and logs once a second at most', async () => {
    const log = new LogCapture();
    const queue = new TaskQueue(log.logger, { name: 'pushes', concurrency: 1, limit: 2 });
    const running = gate();
    queue.push(running.task);
    await new Promise(setImmediate);
    const ran: number[] = [];
    const queued = [0, 1, 2, 3, 4].map((i) => queue.push(() => Promise.resolve(void ran.push(i))));
    assert.deepEqual(queued, [true, true, false, false, false], 'push tells the caller its task was dropped');
    assert.equal(queue.dropped, 3);
    const warnings = log.find((r) => r.msg === 'tasks dropped: the queue is full');
    assert.deepEqual(warnings.map((r) => [r.queue, r.dropped, r.limit]), [['pushes', 1, 2]], 'one line for the three drops within a second');
    running.finish();
    await queue.settled();
    assert.deepEqual(ran, [0, 1]);
  });

  it('a task that throws is logged and the queue goes on; settled resolves at once when idle', async () => {
    const log = new LogCapture();
    const queue = new TaskQueue(log.logger, { name: 'q', concurrency: 1, limit: 5 });
    await queue.settled();
    let after = false;
    queue.push(() => Promise.reject(new Error('boom')));
    queue.push(() => Promise.resolve(void (after = true)));
    await queue.settled();
    assert.equal(after, true);
    const [failed] = log.find((r) => r.msg === 'a queued task failed');
    assert.equal((failed?.err as { message?: string } | undefined)?.message, 'boom');
  });
});
