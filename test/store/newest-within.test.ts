import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { byTimeThenPosition, NewestWithin, type Found } from '../../src/store/mongo/newest-within.js';

/** What the Mongo replay kept before it streamed: everything sorted, then the newest that fit. */
function sortedThenNewest(messages: Found[], maxBytes: number): { kept: Found[]; truncated: boolean } {
  const sorted = [...messages].sort(byTimeThenPosition);
  let bytes = 0;
  for (let i = sorted.length - 1; i >= 0; i--) {
    bytes += Buffer.byteLength((sorted[i] as Found).json);
    if (bytes > maxBytes) return { kept: sorted.slice(i + 1), truncated: true };
  }
  return { kept: sorted, truncated: false };
}

const messages = fc.uniqueArray(fc.record({ pos: fc.nat(10_000), time: fc.integer({ min: 0, max: 20 }), json: fc.string({ maxLength: 40, unit: 'binary' }) }), {
  selector: (m) => m.pos,
  maxLength: 60,
});

describe('newest within (the Mongo replay\'s selection)', () => {
  it('keeps exactly what sorting everything and taking the newest that fit keeps, offered in any order', () => {
    fc.assert(
      fc.property(messages, fc.nat(600), (raw, maxBytes) => {
        const found = raw.map((m) => ({ ...m, id: String(m.pos) }));
        const within = new NewestWithin(maxBytes);
        for (const m of found) within.offer(m);
        assert.deepEqual({ kept: within.kept(), truncated: within.truncated }, sortedThenNewest(found, maxBytes));
      }),
      { numRuns: 500 },
    );
  });

  it('never holds more than maxBytes: 100,000 offers of 1 KB against 10 KB hold 10 messages', () => {
    const within = new NewestWithin(10 * 1024);
    for (let i = 0; i < 100_000; i++) within.offer({ pos: i, id: String(i), time: Math.floor(i / 7), json: 'x'.repeat(1024) });
    assert.deepEqual(within.kept().map((m) => m.pos), [99_990, 99_991, 99_992, 99_993, 99_994, 99_995, 99_996, 99_997, 99_998, 99_999]);
    assert.equal(within.truncated, true);
  });
});
