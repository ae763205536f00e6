import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LogBatch } from '../../src/store/mongo/message-log.js';
import { LogTail } from '../../src/store/mongo/message-log-tail.js';
import { ScriptedLog } from '../support/scripted-log.js';

const batch = (_id: number): LogBatch => ({ _id, last: _id, by: `w.${_id}`, events: [] });

/** A log whose peers announce (or not) what they write; counts the tail's questions to the heads. */
class AnnouncingLog extends ScriptedLog {
  hints = 0;
  private readonly offered = new Set<() => void>();

  constructor(private readonly all: boolean) {
    super([batch(1)]);
  }

  override newestHint(): Promise<LogBatch | undefined> {
    this.hints++;
    return super.newestHint();
  }

  allAnnounced(): boolean {
    return this.all;
  }

  onOffer(listener: () => void): () => void {
    this.offered.add(listener);
    return () => this.offered.delete(listener);
  }

  /** A peer's batch, announced to the tail. */
  announce(b: LogBatch): void {
    this.put(b);
    for (const listener of this.offered) listener();
  }
}

/** A tail on `log` from its first batch: when each later position was handed on (ms after the start). */
function tailOf(log: AnnouncingLog): { tail: LogTail; handedAt: Map<number, number> } {
  const started = performance.now();
  const handedAt = new Map<number, number>();
  const tail = new LogTail(log, batch(1), {
    batch: (b) => handedAt.set(b._id, performance.now() - started),
    lost: () => assert.fail('nothing is lost here'),
    error: (err) => assert.fail(String(err)),
  }, { pollMs: 1, idlePollMs: 4, checkMs: 200, retryMs: 1 });
  return { tail, handedAt };
}

describe('MongoDB log tail — a linked node does not poll (test double of the log)', () => {
  it('quiet for 1 s: with every writer announcing it asks the heads about twice per check, else every idle poll', async () => {
    const counts: number[] = [];
    for (const all of [true, false]) {
      const log = new AnnouncingLog(all);
      const { tail } = tailOf(log);
      await sleep(1000);
      tail.stop();
      await tail.done;
      counts.push(log.hints);
    }
    const [announced, polling] = counts as [number, number];
    assert.ok(announced <= 12, `announced: ${announced} reads of the heads in 1 s (5 checks)`);
    assert.ok(polling >= 100, `polling: ${polling} reads of the heads in 1 s (one per 4 ms)`);
  });

  it('an announced batch is handed on at once; one nobody announced (an import) at the next check', async () => {
    const log = new AnnouncingLog(true);
    const { tail, handedAt } = tailOf(log);
    await sleep(50);
    log.announce(batch(2));
    await sleep(20);
    assert.ok((handedAt.get(2) ?? Infinity) < 70, `announced at 50 ms, handed on at ${handedAt.get(2)} ms`);
    log.put(batch(3));
    await sleep(400);
    tail.stop();
    await tail.done;
    assert.deepEqual([...handedAt.keys()], [2, 3]);
    assert.ok((handedAt.get(3) ?? Infinity) <= 400, `put at 70 ms, handed on at ${handedAt.get(3)} ms (it looks every 200)`);
  });
});
