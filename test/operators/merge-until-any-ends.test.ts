import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Subject } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { mergeUntilAnyEnds } from '../../src/operators/merge-until-any-ends.js';

const scheduler = (): TestScheduler => new TestScheduler((actual, expected) => assert.deepEqual(actual, expected));

describe('mergeUntilAnyEnds', () => {
  it('emits what every source emits, and completes with the first to complete, unsubscribing the others', () => {
    const ts = scheduler();
    ts.run(({ hot, expectObservable, expectSubscriptions }) => {
      const a = hot('-a---a--|');
      const b = hot('--b-|');
      const c = hot('---c-----c');
      expectObservable(mergeUntilAnyEnds([a, b, c])).toBe('-abc|');
      for (const source of [a, b, c]) expectSubscriptions(source.subscriptions).toBe('^---!');
    });
  });

  it('passes an error through at once', () => {
    const ts = scheduler();
    ts.run(({ hot, expectObservable }) => {
      expectObservable(mergeUntilAnyEnds([hot('-a-#'), hot('--b--b')])).toBe('-ab#');
    });
  });

  it('a source already complete ends it before the rest are subscribed; no sources complete at once', () => {
    const later = new Subject<number>();
    const seen: string[] = [];
    mergeUntilAnyEnds([new Subject<number>(), later]).subscribe({ complete: () => seen.push('never') });
    later.complete();
    assert.deepEqual(seen, ['never']);
    assert.equal(later.observed, false);
    const done = new Subject<number>();
    done.complete();
    const other = new Subject<number>();
    mergeUntilAnyEnds([done, other]).subscribe({ complete: () => seen.push('done') });
    assert.deepEqual([seen, other.observed], [['never', 'done'], false]);
    mergeUntilAnyEnds<number>([]).subscribe({ complete: () => seen.push('empty') });
    assert.deepEqual(seen, ['never', 'done', 'empty']);
  });
});
