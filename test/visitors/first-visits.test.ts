import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FirstVisits, spentEmail, spentMessage, spentRequest } from '../../src/visitors/first-visits.js';

describe('first visits', () => {
  it('note a first visit and answer the second with what the first spent, once', () => {
    const visits = new FirstVisits(1024);
    assert.equal(visits.arrive('198.51.100.1'), 0);
    visits.spend('198.51.100.1', spentMessage);
    assert.equal(visits.size, 1);
    assert.equal(visits.arrive('198.51.100.1'), spentRequest | spentMessage);
    assert.deepEqual([visits.size, visits.arrive('198.51.100.1')], [0, 0], 'forgotten at its second: the next is a first again');
  });

  it('forget a key held as a visitor; spend nothing for a key not remembered', () => {
    const visits = new FirstVisits(1024);
    visits.arrive('a');
    visits.forget('a');
    visits.spend('a', spentEmail);
    assert.deepEqual([visits.size, visits.arrive('a')], [0, 0]);
  });

  it('replace the occupant of a slot, counting it, in a table of fixed size', () => {
    const visits = new FirstVisits(1);
    visits.arrive('a');
    visits.arrive('b');
    assert.deepEqual([visits.size, visits.replaced], [1, 1]);
    assert.equal(visits.arrive('a'), 0, 'a was replaced: a first visit again');
    assert.throws(() => new FirstVisits(1000), /power of two/);
  });

  it('remember most of 10,000 distinct addresses in 65,536 slots (a later one replaces ~7% by chance)', () => {
    const visits = new FirstVisits(65_536);
    for (let n = 0; n < 10_000; n++) visits.arrive(n % 2 ? `2001:db8:0:${n.toString(16)}:0:0:0:0/64` : `10.0.${n >> 8}.${n & 255}`);
    assert.ok(visits.replaced <= 900, `${visits.replaced} of 10,000 replaced`);
    assert.equal(visits.size, 10_000 - visits.replaced);
  });
});
