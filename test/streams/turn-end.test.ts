import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { atTurnEnd } from '../../src/streams/turn-end.js';

/** Resolves in the turn after the next (two check phases on). */
const turnsLater = (): Promise<void> => new Promise((resolve) => setImmediate(() => setImmediate(resolve)));

describe('atTurnEnd', () => {
  it('runs tasks after the current turn, in the order they came', async () => {
    const ran: string[] = [];
    atTurnEnd(() => ran.push('a'));
    atTurnEnd(() => ran.push('b'));
    ran.push('now');
    await turnsLater();
    assert.deepEqual(ran, ['now', 'a', 'b']);
  });

  it('a task queued by a task’s microtasks runs in the same check phase, after them', async () => {
    const ran: string[] = [];
    atTurnEnd(() => {
      ran.push('commit');
      // Queued before the flush, yet a turn later: a setImmediate from the check phase.
      setImmediate(() => ran.push('next turn'));
      // A commit's continuations: the answers, and a delivery that asks for a flush.
      void Promise.resolve()
        .then(() => ran.push('answer 1'))
        .then(() => atTurnEnd(() => ran.push('flush')))
        .then(() => ran.push('answer 2'));
    });
    await turnsLater();
    assert.deepEqual(ran, ['commit', 'answer 1', 'answer 2', 'flush', 'next turn']);
  });

  it('a cancelled task does not run; the ones after it do', async () => {
    const ran: string[] = [];
    const cancel = atTurnEnd(() => ran.push('cancelled'));
    atTurnEnd(() => ran.push('kept'));
    cancel();
    await turnsLater();
    assert.deepEqual(ran, ['kept']);
  });

  it('a task queued once the queue ran empty runs at the next turn’s end', async () => {
    const ran: string[] = [];
    atTurnEnd(() => ran.push('first'));
    await turnsLater();
    atTurnEnd(() => ran.push('second'));
    await turnsLater();
    assert.deepEqual(ran, ['first', 'second']);
  });
});
