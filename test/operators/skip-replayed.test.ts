import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TestScheduler } from 'rxjs/testing';
import { Outbound } from '../../src/model/outbound.js';
import { skipReplayed } from '../../src/operators/skip-replayed.js';

const ev = (id: string): Outbound => Outbound.of({ id, time: 1, event: 'message', topic: 't' }, '{}');

describe('skipReplayed', () => {
  it('drops each replayed id once and passes the rest', () => {
    const ts = new TestScheduler((a, e) => assert.deepEqual(a, e));
    const [a, b, c] = [ev('a'), ev('b'), ev('c')];
    ts.run(({ cold, expectObservable }) => {
      expectObservable(cold('abca|', { a, b, c }).pipe(skipReplayed(new Set(['a', 'b'])))).toBe('--ca|', { a, c });
    });
  });

  it('with nothing replayed-but-undelivered it is the identity', () => {
    const ts = new TestScheduler((x, y) => assert.deepEqual(x, y));
    const a = ev('a');
    ts.run(({ cold, expectObservable }) => {
      expectObservable(cold('a#', { a }).pipe(skipReplayed(new Set()))).toBe('a#', { a });
    });
  });
});
