import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { HttpError } from '../../src/model/errors.js';
import { maxDelayLength, parseFutureTime } from '../../src/model/future-time.js';

// A fixed "now": Sunday 2026-11-22, 15:00 in the process's time zone.
const now = new Date(2026, 10, 22, 15, 0, 0);
const at = (s: string): Date => parseFutureTime(s, now);
const local = (d: number, h: number, m = 0): Date => new Date(2026, 10, d, h, m, 0);

describe('delay', () => {
  it('Unix timestamps', () => {
    const t = Math.floor(now.getTime() / 1000) + 3600;
    assert.equal(at(String(t)).getTime(), t * 1000);
  });

  it('durations from now', () => {
    assert.equal(at('30m').getTime(), now.getTime() + 30 * 60_000);
    assert.equal(at('3h').getTime(), now.getTime() + 3 * 3_600_000);
    assert.equal(at('2 days').getTime(), now.getTime() + 2 * 86_400_000);
    assert.equal(at('1d').getTime(), now.getTime() + 86_400_000);
    assert.equal(at('90s').getTime(), now.getTime() + 90_000);
  });

  it('natural language; a time of day already past means tomorrow', () => {
    assert.equal(at('10am').getTime(), local(23, 10).getTime());
    assert.equal(at('4pm').getTime(), local(22, 16).getTime());
    assert.equal(at('tomorrow, 3pm').getTime(), local(23, 15).getTime());
    assert.equal(at('Tuesday 7pm').getTime(), local(24, 19).getTime());
  });

  it('unparseable input, past timestamps, past dates and times no Date holds are 40004', () => {
    for (const bad of ['whenever pigs fly', '', String(Math.floor(now.getTime() / 1000) - 60), '2025-01-01', 'March 3, 2020 10am', '999999999 d', '99999999999999999999', '9999999999999h']) {
      assert.throws(() => at(bad), (err: unknown) => err instanceof HttpError && err.code === 40004, bad);
    }
  });

  it('text over 64 characters once trimmed is too large (40006) without being parsed; surrounding space does not count', () => {
    const padded = `${' '.repeat(100)}tomorrow, 3pm${' '.repeat(100)}`;
    assert.equal(at(padded).getTime(), local(23, 15).getTime());
    assert.equal(at(`in ${'0'.repeat(maxDelayLength - 6)}1 h`).getTime(), now.getTime() + 3_600_000);
    for (const long of [`in ${'0'.repeat(maxDelayLength - 5)}1 h`, `jan${' '.repeat(60_000)}!`, 'next '.repeat(1000)]) {
      assert.throws(() => at(long), (err: unknown) => err instanceof HttpError && err.code === 40006, long.slice(0, 20));
    }
  });
});

describe('delay — bounded parse', () => {
  /** The slowest of `runs` parses of `input`, in ms (a refusal counts as an answer). */
  const slowestMs = (input: string, runs = 3): number => {
    let slowest = 0;
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      try {
        at(input);
      } catch (err) {
        assert.ok(err instanceof HttpError, String(err));
      }
      slowest = Math.max(slowest, performance.now() - t);
    }
    return slowest;
  };

  it('any string up to 4 KB returns or throws an HttpError within 200 ms', () => {
    const word = fc.constantFrom('jan', 'monday', 'next', 'at', 'in', '1', '12', '2026', '-', '/', ':', ' ', '   ', 'am', 'pm', 'tomorrow', 'noon', 'T', 'minutes', '!', '\t');
    const text = fc.oneof(fc.string({ maxLength: 4096 }), fc.array(word, { maxLength: 1500 }).map((w) => w.join('')));
    slowestMs('tomorrow, 3pm'); // chrono-node's first parse compiles its patterns
    // ~1 ms is the bound measured on an idle core (see maxDelayLength); 200 leaves room for a loaded CI (test files run two at a time).
    fc.assert(fc.property(text, (input) => slowestMs(input, 1) < 200), { numRuns: 300 });
  });

  it('the hostile shapes at the longest length read parse in about a millisecond', () => {
    const n = maxDelayLength;
    const shapes = [`jan${' '.repeat(n - 4)}!`, '1 '.repeat(n / 2), '1-'.repeat(n / 2), 'jan 1 '.repeat(n / 6), 'next '.repeat(n / 5), '9am '.repeat(n / 4), '10:30 '.repeat(n / 6)];
    slowestMs('tomorrow, 3pm');
    for (const input of shapes) {
      const times = Array.from({ length: 5 }, () => slowestMs(input, 1)).sort((a, b) => a - b);
      assert.ok((times[2] as number) < 5, `${JSON.stringify(input)}: median ${(times[2] as number).toFixed(2)} ms`);
    }
  });
});
