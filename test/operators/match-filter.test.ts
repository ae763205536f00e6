import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TestScheduler } from 'rxjs/testing';
import { Outbound } from '../../src/model/outbound.js';
import { matchFilter, passes, isEmptyFilter } from '../../src/operators/match-filter.js';

const msg = (id: string, extra: Partial<Outbound['head']> = {}): Outbound =>
  Outbound.of({ id, time: 1, event: 'message', topic: 't', message: id, ...extra }, '{}');

describe('matchFilter', () => {
  it('an empty filter passes everything and is recognised as empty', () => {
    assert.equal(isEmptyFilter({}), true);
    assert.equal(passes({}, msg('a')), true);
  });

  it('id, message and title match exactly', () => {
    assert.equal(passes({ id: 'a' }, msg('a')), true);
    assert.equal(passes({ id: 'a' }, msg('b')), false);
    assert.equal(passes({ message: 'a' }, msg('a')), true);
    assert.equal(passes({ title: 'T' }, msg('a', { title: 'T' })), true);
    assert.equal(passes({ title: 'T' }, msg('a')), false);
  });

  it('priorities are OR-ed and an unset priority counts as 3', () => {
    assert.equal(passes({ priorities: [3] }, msg('a')), true);
    assert.equal(passes({ priorities: [1, 5] }, msg('a', { priority: 5 })), true);
    assert.equal(passes({ priorities: [1, 5] }, msg('a', { priority: 4 })), false);
  });

  it('tags are AND-ed', () => {
    assert.equal(passes({ tags: ['x', 'y'] }, msg('a', { tags: ['y', 'x', 'z'] })), true);
    assert.equal(passes({ tags: ['x', 'y'] }, msg('a', { tags: ['x'] })), false);
    assert.equal(passes({ tags: ['x'] }, msg('a')), false);
  });

  it('control events always pass', () => {
    const open = Outbound.of({ id: 'o', time: 1, event: 'open', topic: 't' }, '{}');
    assert.equal(passes({ id: 'zzz', tags: ['q'] }, open), true);
  });

  it('as an operator: filters a stream, passes errors and completion', () => {
    const ts = new TestScheduler((a, e) => assert.deepEqual(a, e));
    const a = msg('a', { priority: 5 });
    const b = msg('b', { priority: 1 });
    ts.run(({ cold, expectObservable }) => {
      expectObservable(cold('ab|', { a, b }).pipe(matchFilter({ priorities: [5] }))).toBe('a-|', { a });
      expectObservable(cold('a#', { a }).pipe(matchFilter({ priorities: [1] }))).toBe('-#');
    });
  });
});
