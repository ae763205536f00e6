import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HttpError } from '../../src/model/errors.js';
import { parseSince } from '../../src/transports/subscribe/params.js';

describe('since', () => {
  it('keywords, and the defaults with and without poll', () => {
    assert.deepEqual(parseSince('', false), { kind: 'none' });
    assert.deepEqual(parseSince('', true), { kind: 'all' });
    assert.deepEqual(parseSince('all', false), { kind: 'all' });
    assert.deepEqual(parseSince('latest', false), { kind: 'latest' });
    assert.deepEqual(parseSince('none', true), { kind: 'none' });
  });

  it('a message id, a Unix time, a duration back from now', () => {
    assert.deepEqual(parseSince('aBcDeFgHiJ12', false), { kind: 'id', id: 'aBcDeFgHiJ12' });
    assert.deepEqual(parseSince('1700000000', false), { kind: 'time', time: 1700000000 });
    const since = parseSince('10m', false);
    assert.equal(since.kind, 'time');
    assert.ok(since.kind === 'time' && Math.abs(since.time - (Math.floor(Date.now() / 1000) - 600)) <= 1);
  });

  it('anything else is 40008', () => {
    for (const bad of ['yesterday', '10 parsecs', 'abc']) {
      assert.throws(() => parseSince(bad, false), (err: unknown) => err instanceof HttpError && err.code === 40008, bad);
    }
  });
});
