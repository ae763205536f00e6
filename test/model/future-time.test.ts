import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HttpError } from '../../src/model/errors.js';
import { parseFutureTime } from '../../src/model/future-time.js';

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
});
