import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TestScheduler } from 'rxjs/testing';
import { withKeepalive } from '../../src/operators/keepalive.js';

describe('withKeepalive', () => {
  it('interleaves a keepalive every period while the source is silent or busy', () => {
    const ts = new TestScheduler((a, e) => assert.deepEqual(a, e));
    ts.run(({ cold, expectObservable }) => {
      const source = cold('a 14ms b');
      expectObservable(source.pipe(withKeepalive(10, () => 'k', ts)), '^ 25ms !').toBe('a 9ms k 4ms b 4ms k');
    });
  });

  it('an error of the source ends the keepalives too', () => {
    const ts = new TestScheduler((a, e) => assert.deepEqual(a, e));
    ts.run(({ cold, expectObservable }) => {
      expectObservable(cold('a 4ms #').pipe(withKeepalive(10, () => 'k', ts))).toBe('a 4ms #');
    });
  });

  it('a factory that throws errors the stream instead of crashing', () => {
    const ts = new TestScheduler((a, e) => assert.deepEqual(a, e));
    ts.run(({ cold, expectObservable }) => {
      const boom = (): string => {
        throw new Error('boom');
      };
      expectObservable(cold('-').pipe(withKeepalive(3, boom, ts))).toBe('---#', undefined, new Error('boom'));
    });
  });
});
