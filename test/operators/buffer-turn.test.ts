import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Subject } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { bufferTurn } from '../../src/operators/buffer-turn.js';

const scheduler = (): TestScheduler => new TestScheduler((actual, expected) => assert.deepEqual(actual, expected));

describe('bufferTurn', () => {
  it('emits nothing for an empty source', () => {
    scheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold('|').pipe(bufferTurn({ maxSize: 0, maxWaitMs: 5 }))).toBe('|');
    });
  });

  it('groups values that arrive within the wait into one array', () => {
    const ts = scheduler();
    ts.run(({ cold, expectObservable }) => {
      const source = cold('ab 1ms c 10ms d|');
      expectObservable(source.pipe(bufferTurn({ maxSize: 0, maxWaitMs: 5, scheduler: ts }))).toBe('----- x 9ms (y|)', {
        x: ['a', 'b', 'c'],
        y: ['d'],
      });
    });
  });

  it('flushes without waiting when maxSize is reached', () => {
    const ts = scheduler();
    ts.run(({ cold, expectObservable }) => {
      expectObservable(cold('abc|').pipe(bufferTurn({ maxSize: 2, maxWaitMs: 5, scheduler: ts }))).toBe('-x-(y|)', { x: ['a', 'b'], y: ['c'] });
    });
  });

  it('a full buffer goes out after the values of the same moment, in arrays of maxSize', () => {
    const ts = scheduler();
    ts.run(({ cold, expectObservable }) => {
      expectObservable(cold('(abc)---d|').pipe(bufferTurn({ maxSize: 2, maxWaitMs: 5, scheduler: ts }))).toBe('(xy)-----(z|)', { x: ['a', 'b'], y: ['c'], z: ['d'] });
      expectObservable(cold('(abcde|)').pipe(bufferTurn({ maxSize: 2, maxWaitMs: 5, scheduler: ts }))).toBe('(xyz|)', { x: ['a', 'b'], y: ['c', 'd'], z: ['e'] });
    });
  });

  it('without a scheduler, a full buffer waits for the turn to end', async () => {
    const source = new Subject<number>();
    const batches: number[][] = [];
    const sub = source.pipe(bufferTurn({ maxSize: 2, maxWaitMs: 0 })).subscribe((b) => batches.push(b));
    [1, 2, 3, 4, 5].forEach((n) => source.next(n));
    assert.deepEqual(batches, [], 'nothing inside the turn');
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(batches, [[1, 2], [3, 4], [5]]);
    sub.unsubscribe();
  });

  it('passes an error through', () => {
    const ts = scheduler();
    ts.run(({ cold, expectObservable }) => {
      expectObservable(cold('a#').pipe(bufferTurn({ maxSize: 0, maxWaitMs: 5, scheduler: ts }))).toBe('-#');
    });
  });

  it('never emits for a never-ending silent source, and stops its timer on unsubscribe', () => {
    const ts = scheduler();
    ts.run(({ cold, expectObservable }) => {
      expectObservable(cold('a').pipe(bufferTurn({ maxSize: 0, maxWaitMs: 5, scheduler: ts })), '--!').toBe('');
    });
  });

  it('without a scheduler, batches one event-loop turn (setImmediate)', async () => {
    const source = new Subject<number>();
    const batches: number[][] = [];
    const sub = source.pipe(bufferTurn({ maxSize: 0, maxWaitMs: 0 })).subscribe((b) => batches.push(b));
    source.next(1);
    source.next(2);
    await new Promise((resolve) => setImmediate(resolve));
    source.next(3);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(batches, [[1, 2], [3]]);
    sub.unsubscribe();
  });
});
