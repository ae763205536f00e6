import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Subject } from 'rxjs';
import { hold } from '../../src/operators/hold.js';

describe('hold', () => {
  it('keeps values until the consumer subscribes, then follows live', () => {
    const source = new Subject<number>();
    const held = hold(source);
    source.next(1);
    source.next(2);
    const seen: number[] = [];
    held.observable.subscribe((v) => seen.push(v));
    source.next(3);
    assert.deepEqual(seen, [1, 2, 3]);
  });

  it('with nothing held, passes values straight through', () => {
    const source = new Subject<string>();
    const seen: string[] = [];
    hold(source).observable.subscribe((v) => seen.push(v));
    source.next('a');
    assert.deepEqual(seen, ['a']);
  });

  it('replays a completion or an error that happened while holding', () => {
    const done = new Subject<number>();
    const heldDone = hold(done);
    done.next(1);
    done.complete();
    let completed = false;
    const values: number[] = [];
    heldDone.observable.subscribe({ next: (v) => values.push(v), complete: () => (completed = true) });
    assert.deepEqual(values, [1]);
    assert.equal(completed, true);

    const failing = new Subject<number>();
    const heldFail = hold(failing);
    failing.error(new Error('x'));
    let error: unknown;
    heldFail.observable.subscribe({ error: (e: unknown) => (error = e) });
    assert.equal((error as Error).message, 'x');
  });

  it('release() and the consumer’s unsubscribe both detach from the source', () => {
    const a = new Subject<number>();
    hold(a).release();
    assert.equal(a.observed, false);
    const b = new Subject<number>();
    hold(b).observable.subscribe().unsubscribe();
    assert.equal(b.observed, false);
  });

  it('accepts exactly one consumer', () => {
    const held = hold(new Subject<number>());
    held.observable.subscribe();
    let error: unknown;
    held.observable.subscribe({ error: (e: unknown) => (error = e) });
    assert.match(String(error), /exactly one consumer/);
  });
});
