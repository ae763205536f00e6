import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { repeatLocally } from '../../src/housekeeping/local-timer.js';

describe('local timer', () => {
  it('repeats the task, one run at a time, and stop waits for the run under way; none follows', async () => {
    let runs = 0;
    let running = 0;
    let most = 0;
    let release: () => void = () => undefined;
    let thirdStarted: () => void = () => undefined;
    const third = new Promise<void>((resolve) => (thirdStarted = resolve));
    const keepAlive = setInterval(() => undefined, 1000); // the timer itself does not hold the process open
    const timer = repeatLocally(async () => {
      runs++;
      running++;
      most = Math.max(most, running);
      if (runs === 3) {
        thirdStarted();
        await new Promise<void>((resolve) => (release = resolve));
      }
      running--;
    }, 5);
    await third;
    let stopped = false;
    const stopping = timer.stop().then(() => (stopped = true));
    await new Promise((resolve) => setTimeout(resolve, 30));
    assert.equal(stopped, false, 'waits for the third run');
    release();
    await stopping;
    await new Promise((resolve) => setTimeout(resolve, 30));
    clearInterval(keepAlive);
    assert.deepEqual([runs, most, running], [3, 1, 0]);
  });

  it('does not keep the process alive', async () => {
    const before = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const timer = repeatLocally(async () => undefined, 60_000);
    assert.equal(process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length, before, 'an unref\'d timer is not an active resource');
    await timer.stop();
  });
});
