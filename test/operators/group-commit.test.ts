import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Subject, type Observable } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { groupCommit } from '../../src/operators/group-commit.js';

const scheduler = (): TestScheduler => new TestScheduler((actual, expected) => assert.deepEqual(actual, expected));

/** Resolves after the current turn's end (its check phase). */
const turnEnd = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A commit the test settles by hand, recording the batches it was given. */
function manualCommits<T>(): { batches: T[][]; settle(err?: Error): void; commit(batch: T[]): Promise<T[]> } {
  const waiting: { resolve(): void; reject(err: Error): void }[] = [];
  const batches: T[][] = [];
  return {
    batches,
    settle: (err) => {
      const next = waiting.shift();
      assert.ok(next, 'a commit in flight');
      if (err) next.reject(err);
      else next.resolve();
    },
    commit: (batch) => {
      batches.push(batch);
      return new Promise((resolve, reject) => waiting.push({ resolve: () => resolve(batch), reject }));
    },
  };
}

describe('groupCommit', () => {
  it('group commit — an empty source completes without a commit', () => {
    const ts = scheduler();
    ts.run(({ cold, expectObservable }) => {
      const commit = (): Observable<never> => assert.fail('no commit');
      expectObservable(cold('|').pipe(groupCommit(commit, { maxSize: 0, maxWaitMs: 0, scheduler: ts }))).toBe('|');
    });
  });

  it('group commit — one value is committed at its turn\'s end, and the output completes once it settled', () => {
    const ts = scheduler();
    ts.run(({ cold, expectObservable }) => {
      const commit = (batch: string[]): Observable<string> => cold('--(x|)', { x: batch.join('') });
      expectObservable(cold('a|').pipe(groupCommit(commit, { maxSize: 0, maxWaitMs: 0, scheduler: ts }))).toBe('--(x|)', { x: 'a' });
    });
  });

  it('group commit — values that arrive during a commit are queued and committed together when it settles', () => {
    const ts = scheduler();
    ts.run(({ cold, expectObservable }) => {
      const commit = (batch: string[]): Observable<string> => cold('---(x|)', { x: batch.join('') });
      // a commits at 0 and settles at 3; b and c arrive at 1 and 2, d at 4 and e at 5.
      const source = cold('abc-de--|');
      expectObservable(source.pipe(groupCommit(commit, { maxSize: 0, maxWaitMs: 0, scheduler: ts }))).toBe('---x--y--(z|)', { x: 'a', y: 'bc', z: 'de' });
    });
  });

  it('group commit — a value queued alone commits at its turn\'s end whatever maxWaitMs, idle or after a commit', () => {
    const ts = scheduler();
    ts.run(({ cold, expectObservable }) => {
      const commit = (batch: string[]): Observable<string> => cold('--(x|)', { x: batch.join('') });
      // a commits at 0; b arrives during its commit and goes when it settles (2); c at 6 at once.
      expectObservable(cold('ab----c 10ms |').pipe(groupCommit(commit, { maxSize: 0, maxWaitMs: 1000, scheduler: ts }))).toBe('--x-y---z 8ms |', { x: 'a', y: 'b', z: 'c' });
    });
  });

  it('group commit — values queued together wait for more until maxWaitMs after the first arrived', () => {
    const ts = scheduler();
    ts.run(({ cold, expectObservable }) => {
      const commit = (batch: string[]): Observable<string> => cold('(x|)', { x: batch.join('') });
      // a and b at 0 wait until 5; c (4) joins them; d (6) is alone again and goes at once.
      expectObservable(cold('(ab)c-d 10ms |').pipe(groupCommit(commit, { maxSize: 0, maxWaitMs: 5, scheduler: ts }))).toBe('5ms xy 10ms |', { x: 'abc', y: 'd' });
    });
  });

  it('group commit — values queued during a commit wait out maxWaitMs from the first of them when several', () => {
    const ts = scheduler();
    ts.run(({ cold, expectObservable }) => {
      const commit = (batch: string[]): Observable<string> => cold('--(x|)', { x: batch.join('') });
      // a commits at 0 (settles at 2); b and c arrive at 1 together and wait until 1 + 5.
      expectObservable(cold('a(bc) 10ms |').pipe(groupCommit(commit, { maxSize: 0, maxWaitMs: 5, scheduler: ts }))).toBe('--x-----y 6ms |', { x: 'a', y: 'bc' });
    });
  });

  it('group commit — a queue longer than maxSize goes in arrays of maxSize, one commit after another, each taking what queued meanwhile', () => {
    const ts = scheduler();
    ts.run(({ cold, expectObservable }) => {
      const commit = (batch: string[]): Observable<string> => cold('9ms (x|)', { x: batch.join('') });
      // a..e arrive in one moment: ab, cd, then e with f, which arrived while ab committed.
      const source = cold('(abcde)f|');
      expectObservable(source.pipe(groupCommit(commit, { maxSize: 2, maxWaitMs: 5, scheduler: ts }))).toBe('9ms x 8ms y 8ms (z|)', { x: 'ab', y: 'cd', z: 'ef' });
    });
  });

  it('group commit — a full batch waits for the turn\'s end, not for maxWaitMs', () => {
    const ts = scheduler();
    ts.run(({ cold, expectObservable }) => {
      const commit = (batch: string[]): Observable<string> => cold('(x|)', { x: batch.join('') });
      // a and b wait for more; c fills the batch at 4 and it goes at that turn's end.
      expectObservable(cold('(ab)c 10ms |').pipe(groupCommit(commit, { maxSize: 3, maxWaitMs: 50, scheduler: ts }))).toBe('4ms x 10ms |', { x: 'abc' });
    });
  });

  it('group commit — commits synchronously settled come back to a loop, not a deeper stack', () => {
    const source = new Subject<number>();
    const seen: number[] = [];
    const done = new Promise<void>((resolve) => {
      source.pipe(groupCommit((batch: number[]) => batch, { maxSize: 1, maxWaitMs: 0 })).subscribe({ next: (n) => seen.push(n), complete: resolve });
    });
    for (let n = 0; n < 20_000; n++) source.next(n);
    source.complete();
    return done.then(() => assert.deepEqual(seen, Array.from({ length: 20_000 }, (_, n) => n)));
  });

  it('group commit — without a scheduler, an idle arrival is committed at its turn\'s end, not inside the turn', async () => {
    const source = new Subject<number>();
    const commits = manualCommits<number>();
    const sub = source.pipe(groupCommit(commits.commit, { maxSize: 0, maxWaitMs: 0 })).subscribe();
    source.next(1);
    source.next(2);
    assert.deepEqual(commits.batches, [], 'nothing inside the turn');
    await turnEnd();
    assert.deepEqual(commits.batches, [[1, 2]]);
    sub.unsubscribe();
  });

  it('group commit — a commit that settles while a turn\'s values arrive waits for its end to take them too', async () => {
    const source = new Subject<number>();
    const commits = manualCommits<number>();
    const sub = source.pipe(groupCommit(commits.commit, { maxSize: 0, maxWaitMs: 0 })).subscribe();
    source.next(1);
    await turnEnd();
    source.next(2);
    await turnEnd();
    // Given 2 queued in an earlier turn, 3 arriving in this one, when the commit of 1 settles:
    source.next(3);
    commits.settle();
    await Promise.resolve();
    await Promise.resolve();
    assert.deepEqual(commits.batches, [[1]], 'the next commit waits for the turn\'s end');
    await turnEnd();
    assert.deepEqual(commits.batches, [[1], [2, 3]]);
    sub.unsubscribe();
  });

  it('group commit — a rejected commit errors the output; the values queued behind it are not committed', async () => {
    const source = new Subject<number>();
    const commits = manualCommits<number>();
    const failed = new Promise<unknown>((resolve) => source.pipe(groupCommit(commits.commit, { maxSize: 0, maxWaitMs: 0 })).subscribe({ error: resolve }));
    source.next(1);
    await turnEnd();
    source.next(2);
    await turnEnd();
    commits.settle(new Error('disk full'));
    assert.equal(((await failed) as Error).message, 'disk full');
    await turnEnd();
    assert.deepEqual(commits.batches, [[1]]);
  });

  it('group commit — a commit that throws errors the output', () => {
    const ts = scheduler();
    ts.run(({ cold, expectObservable }) => {
      const commit = (): Observable<string> => {
        throw new Error('bad batch');
      };
      expectObservable(cold('a-b|').pipe(groupCommit(commit, { maxSize: 0, maxWaitMs: 0, scheduler: ts }))).toBe('#', undefined, new Error('bad batch'));
    });
  });

  it('group commit — passes a source error through at once', () => {
    const ts = scheduler();
    ts.run(({ cold, expectObservable }) => {
      const commit = (batch: string[]): Observable<string> => cold('--(x|)', { x: batch.join('') });
      expectObservable(cold('a#').pipe(groupCommit(commit, { maxSize: 0, maxWaitMs: 5, scheduler: ts }))).toBe('-#');
    });
  });

  it('group commit — a never-ending source keeps the output open; unsubscribing ends the commit in flight', () => {
    const ts = scheduler();
    ts.run(({ cold, expectObservable, expectSubscriptions }) => {
      const inFlight = cold('-----(x|)', { x: 'a' });
      expectObservable(cold('a-b').pipe(groupCommit(() => inFlight, { maxSize: 0, maxWaitMs: 0, scheduler: ts })), '---!').toBe('');
      expectSubscriptions(inFlight.subscriptions).toBe('^--!');
    });
  });

  it('group commit — unsubscribing during the wait cancels it: nothing is committed', () => {
    const ts = scheduler();
    const batches: string[][] = [];
    ts.run(({ cold, expectObservable }) => {
      const commit = (batch: string[]): Observable<string> => {
        batches.push(batch);
        return cold('(x|)', { x: 'x' });
      };
      expectObservable(cold('(ab)').pipe(groupCommit(commit, { maxSize: 0, maxWaitMs: 5, scheduler: ts })), '--!').toBe('');
    });
    assert.deepEqual(batches, []);
  });

  it('group commit — after a slow commit of several, the next waits for as many arrivals as it carried', () => {
    const ts = scheduler();
    ts.run(({ cold, expectObservable }) => {
      const commit = (batch: string[]): Observable<string> => cold('9ms (x|)', { x: batch.join('') });
      // ab commits at 0, settled at 9 with c (4) queued; d and e (its publishers back) arrive
      // at 10 and 11: cde goes at 11 (the third arrival), not c alone at 9.
      const source = cold('(ab) c 5ms de 20ms |');
      expectObservable(source.pipe(groupCommit(commit, { maxSize: 0, maxWaitMs: 0, lingerMaxMs: 10, scheduler: ts }))).toBe('9ms x 10ms y 11ms |', { x: 'ab', y: 'cde' });
    });
  });

  it('group commit — a linger ends after half the last commit\'s time, and a commit of one never lingers', () => {
    const ts = scheduler();
    ts.run(({ cold, expectObservable }) => {
      const commit = (batch: string[]): Observable<string> => cold('8ms (x|)', { x: batch.join('') });
      // ab settles at 8 with c (4) queued, which waits 4 ms (no one else comes): it goes at
      // 12, settles at 20, and d (queued at 15) goes at once: c was a commit of one.
      const source = cold('(ab) c 10ms d 30ms |');
      expectObservable(source.pipe(groupCommit(commit, { maxSize: 0, maxWaitMs: 0, lingerMaxMs: 10, scheduler: ts }))).toBe('8ms x 11ms y 7ms z 17ms |', { x: 'ab', y: 'c', z: 'd' });
    });
  });

  it('group commit — a fast commit (under 2 ms) or lingerMaxMs 0 never lingers', () => {
    const ts = scheduler();
    ts.run(({ cold, expectObservable }) => {
      const fast = (batch: string[]): Observable<string> => cold('-(x|)', { x: batch.join('') });
      expectObservable(cold('(ab)c--|').pipe(groupCommit(fast, { maxSize: 0, maxWaitMs: 0, lingerMaxMs: 10, scheduler: ts }))).toBe('-x 3ms y-|', { x: 'ab', y: 'c' });
      const slow = (batch: string[]): Observable<string> => cold('8ms (x|)', { x: batch.join('') });
      expectObservable(cold('(ab)c 20ms |').pipe(groupCommit(slow, { maxSize: 0, maxWaitMs: 0, lingerMaxMs: 0, scheduler: ts }))).toBe('8ms x 7ms y 8ms |', { x: 'ab', y: 'c' });
    });
  });
});
