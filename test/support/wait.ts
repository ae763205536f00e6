import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Looks at `done` every `everyMs` until it holds, for state that has no event to wait on
 * (a file's size, a table's rows, a job's last run); fails naming `what` once `timeoutMs`
 * passed (a loaded machine runs timers and jobs late).
 */
export async function until(done: () => boolean | Promise<boolean>, what: string, { timeoutMs = 10_000, everyMs = 20 } = {}): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !(await done()); await sleep(everyMs)) if (Date.now() > deadline) assert.fail(`${what}, not within ${timeoutMs} ms`);
}
