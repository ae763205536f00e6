import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { MongoNetworkError } from 'mongodb';
import { PolledReadCache, staleReadBoundMs } from '../../src/store/polled-read-cache.js';
import { readFailure } from '../../src/store/mongo/write-error.js';
import { StoreUnavailableError } from '../../src/store/write-error.js';

/** A change log whose newest number the test sets, and whose polls it can hold. */
class Changes {
  number = 0;
  polls = 0;
  private held: (() => void)[] = [];
  holding = false;
  down = false;
  /** A driver error every poll fails with, once set. */
  lost: Error | undefined;

  readonly newest = async (): Promise<number> => {
    this.polls++;
    if (this.down) throw new Error('no database');
    if (this.lost) throw this.lost;
    if (this.holding) await new Promise<void>((release) => this.held.push(release));
    return this.number;
  };

  release(): void {
    this.holding = false;
    for (const release of this.held.splice(0)) release();
  }
}

/** A cache on a clock the test moves, its background polls never due. */
function cacheOn(changes: Changes): { cache: PolledReadCache; clock: { ms: number } } {
  const clock = { ms: 0 };
  const cache = new PolledReadCache(changes.newest, readFailure, () => clock.ms, 2 ** 30);
  after(() => cache.close());
  return { cache, clock };
}

/** A read that counts how often it reached the database. */
function counted(value: () => string): { read: () => Promise<string>; calls: () => number } {
  let calls = 0;
  return { read: async () => (calls++, value()), calls: () => calls };
}

describe('polled auth read cache (with the MongoDB store\'s read failures)', () => {
  it('read cache — a read or poll the database did not answer fails as StoreUnavailableError (503), any other failure as it is', async () => {
    const changes = new Changes();
    const { cache, clock } = cacheOn(changes);
    const lost = new MongoNetworkError('connection 5 to 127.0.0.1:27017 closed');
    await assert.rejects(cache.get('user:phil', () => Promise.reject(lost)), (err) => err instanceof StoreUnavailableError && err.cause === lost);
    await assert.rejects(cache.get('user:ann', () => Promise.reject(new Error('bug'))), (err) => err instanceof Error && err.message === 'bug');
    clock.ms += staleReadBoundMs + 1;
    changes.lost = lost;
    await assert.rejects(cache.get('user:phil', () => Promise.resolve('phil')), (err) => err instanceof StoreUnavailableError);
  });

  it('answers from memory while a poll that started within the bound found nothing new', async () => {
    const changes = new Changes();
    const { cache, clock } = cacheOn(changes);
    const r = counted(() => 'phil');
    assert.equal(await cache.get('k', r.read), 'phil');
    clock.ms = staleReadBoundMs - 1;
    assert.equal(await cache.get('k', r.read), 'phil');
    assert.deepEqual([r.calls(), changes.polls], [1, 1], 'one read, one poll (the first read\'s)');
    clock.ms = staleReadBoundMs;
    assert.equal(await cache.get('k', r.read), 'phil');
    assert.deepEqual([r.calls(), changes.polls], [1, 2], 'past the bound: polled again, found nothing new');
  });

  it('past the bound with a poll held up, a read waits for it and then reads afresh if another instance changed something', async () => {
    const changes = new Changes();
    const { cache, clock } = cacheOn(changes);
    let stored = 'old';
    const r = counted(() => stored);
    assert.equal(await cache.get('k', r.read), 'old');
    stored = 'new';
    changes.number = 1;
    changes.holding = true;
    clock.ms = staleReadBoundMs;
    let answered: string | undefined;
    const reading = cache.get('k', r.read).then((v) => (answered = v));
    await new Promise((turn) => setImmediate(turn));
    assert.equal(answered, undefined, 'not answered from memory while the poll is out');
    changes.release();
    await reading;
    assert.deepEqual([answered, r.calls()], ['new', 2]);
  });

  it('a read in flight when this instance changes something is not remembered', async () => {
    const changes = new Changes();
    const { cache } = cacheOn(changes);
    await cache.get('warm', async () => 'x'); // the first poll
    let finish!: (v: string) => void;
    const inFlight = cache.get('k', () => new Promise<string>((resolve) => (finish = resolve)));
    cache.clear(); // a change of this instance lands while the read is out
    finish('old');
    assert.equal(await inFlight, 'old');
    assert.equal(await cache.get('k', async () => 'new'), 'new');
  });

  it('one query for a burst of one key; a failed read is not remembered; a failed poll fails the reads past the bound', async () => {
    const changes = new Changes();
    const { cache, clock } = cacheOn(changes);
    const r = counted(() => 'phil');
    assert.deepEqual(await Promise.all([cache.get('k', r.read), cache.get('k', r.read), cache.get('k', r.read)]), ['phil', 'phil', 'phil']);
    assert.equal(r.calls(), 1);
    await assert.rejects(cache.get('bad', async () => Promise.reject(new Error('down'))), /down/);
    assert.equal(await cache.get('bad', async () => 'back'), 'back');
    changes.down = true;
    clock.ms = staleReadBoundMs;
    await assert.rejects(cache.get('k', r.read), /no database/);
  });
});
