import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { MessageLog, type LogBatch } from '../../src/store/mongo/message-log.js';
import { HeadsBoard } from '../../src/store/mongo/log-heads.js';
import { LogTail } from '../../src/store/mongo/message-log-tail.js';
import { ferretDbSkip } from '../support/ferretdb.js';
import { connect, ferretDb } from '../support/mongo-nodes.js';
import { ScriptedLog } from '../support/scripted-log.js';

const batch = (_id: number): LogBatch => ({ _id, last: _id, by: `w.${_id}`, events: [] });

/**
 * A log whose peers announce (or not) what they write, held for the tail as MessageLog
 * holds them: an announcement wakes the tail only when it is the batch the tail reads next.
 * Counts the tail's questions to the heads, which may lag (`headsStale`: they name the first batch only).
 */
class AnnouncingLog extends ScriptedLog {
  hints = 0;
  headsStale = false;
  private readonly offered = new Set<() => void>();
  private readonly held = new Set<number>();
  private tailAt = 0;

  constructor(private readonly all: boolean) {
    super([batch(1)]);
  }

  override newestHint(): Promise<LogBatch | undefined> {
    this.hints++;
    return this.headsStale ? this.at(1).then((b) => b ?? undefined) : super.newestHint();
  }

  override seen(b: LogBatch): void {
    this.tailAt = Math.max(this.tailAt, b.last);
  }

  override take(position: number): Promise<LogBatch | null> {
    this.held.delete(position);
    return super.take(position);
  }

  holds(position: number): boolean {
    return this.held.has(position);
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
    this.held.add(b._id);
    if (b._id === this.tailAt + 1) for (const listener of this.offered) listener();
  }
}

/** A tail on `log` from its first batch: when each later position was handed on (ms after the start). */
function tailOf(log: AnnouncingLog, checkMs = 200): { tail: LogTail; handedAt: Map<number, number> } {
  const started = performance.now();
  const handedAt = new Map<number, number>();
  const tail = new LogTail(log, batch(1), {
    batch: (b) => handedAt.set(b._id, performance.now() - started),
    lost: () => assert.fail('nothing is lost here'),
    error: (err) => assert.fail(String(err)),
  }, { pollMs: 1, idlePollMs: 4, checkMs, retryMs: 1 });
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
  it('two batches announced back to back: the second, held, is handed on at once, though no head names it yet (it used to wait for the next check)', async () => {
    // given: a tail whose heads lag behind the announcements
    const log = new AnnouncingLog(true);
    log.headsStale = true;
    const { tail, handedAt } = tailOf(log, 1000);
    await sleep(50);

    // when: the second arrives before the tail handed on the first (so it wakes nothing)
    const announcedAt = performance.now();
    log.announce(batch(2));
    log.announce(batch(3));
    while (handedAt.size < 2 && performance.now() - announcedAt < 2000) await sleep(2);
    const waited = performance.now() - announcedAt;
    tail.stop();
    await tail.done;

    // then
    assert.deepEqual([...handedAt.keys()], [2, 3]);
    assert.ok(waited < 50, `both handed on ${waited.toFixed(0)} ms after they were announced`);
  });
});

describe('MongoDB log tail — announcements (FerretDB)', { skip: ferretDbSkip() }, () => {
  it('a tail just started on a linked node is woken by the first batch a peer announces (it used to wait for its next check)', async () => {
    // given: a log on a node every peer announces to, and a tail from its newest batch
    const db = (await connect()).db((await ferretDb()).databaseName('tail-first-offer'));
    const log = await MessageLog.open(db, 1 << 20, {}, { shard: 0, count: 1, board: await HeadsBoard.open(db), peers: { linked: 2, all: true } });
    const start = (await log.newest()) as LogBatch;
    const handed: number[] = [];
    const tail = new LogTail(log, start, { batch: (b) => handed.push(b._id), lost: () => assert.fail('nothing is lost here'), error: (err) => assert.fail(String(err)) }, { pollMs: 2, idlePollMs: 20, checkMs: 1000, retryMs: 100 });
    await sleep(50);

    // when: a peer announces the batch after it
    const announcedAt = performance.now();
    log.offer({ _id: start.last + 1, last: start.last + 1, by: 'peer.1', ...(start.by !== undefined && { after: start.by }), events: [] });
    while (handed.length === 0 && performance.now() - announcedAt < 2000) await sleep(5);
    const waited = performance.now() - announcedAt;
    tail.stop();
    await tail.done;

    // then
    assert.deepEqual(handed, [start.last + 1]);
    assert.ok(waited < 100, `handed on ${waited.toFixed(0)} ms after the announcement`);
  });
});
