import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseDuration, parseSize } from '../../src/model/units.js';
import { parsePriority } from '../../src/model/priority.js';
import { HttpError } from '../../src/model/errors.js';

describe('units — durations', () => {
  it('parses Go durations', () => {
    assert.equal(parseDuration('45s'), 45_000);
    assert.equal(parseDuration('1h30m'), 5_400_000);
    assert.equal(parseDuration('500ms'), 500);
    assert.equal(parseDuration('1.5h'), 5_400_000);
    assert.equal(parseDuration('0'), 0);
    assert.equal(parseDuration('0s'), 0);
  });

  it('parses ntfy’s day and word units', () => {
    assert.equal(parseDuration('3d'), 3 * 86_400_000);
    assert.equal(parseDuration('2 days'), 2 * 86_400_000);
    assert.equal(parseDuration('10 mins'), 600_000);
    assert.equal(parseDuration('1 hour'), 3_600_000);
    assert.equal(parseDuration('90 seconds'), 90_000);
  });

  it('rejects anything else', () => {
    for (const bad of ['', '12', 'soon', '3 weeks', '1.5d', 'h1']) assert.throws(() => parseDuration(bad), /invalid duration/, bad);
  });
});

describe('units — sizes', () => {
  it('parses bytes and k/M/G/T, case-insensitive', () => {
    assert.equal(parseSize('4096'), 4096);
    assert.equal(parseSize(4096), 4096);
    assert.equal(parseSize('4k'), 4096);
    assert.equal(parseSize('15M'), 15 * 1024 * 1024);
    assert.equal(parseSize('5g'), 5 * 1024 ** 3);
    assert.equal(parseSize('1T'), 1024 ** 4);
  });

  it('rejects anything else', () => {
    for (const bad of ['', 'lots', '4 k', '-1', '1.5M']) assert.throws(() => parseSize(bad), /invalid size/, bad);
  });
});

describe('priority', () => {
  it('numbers and words', () => {
    const cases: [string, number][] = [['1', 1], ['min', 1], ['2', 2], ['low', 2], ['3', 3], ['default', 3], ['4', 4], ['high', 4], ['5', 5], ['max', 5], ['urgent', 5], [' HIGH ', 4]];
    for (const [input, value] of cases) assert.equal(parsePriority(input), value, input);
  });

  it('empty means not set (0)', () => {
    assert.equal(parsePriority(''), 0);
    assert.equal(parsePriority('  '), 0);
  });

  it('anything else is 40007, also an RFC 9218 value (the header is skipped before) and names of Object.prototype', () => {
    for (const bad of ['0', '6', 'loud', '3.5', 'u=3', '__proto__', 'constructor', 'toString']) {
      assert.throws(() => parsePriority(bad), (err: unknown) => err instanceof HttpError && err.code === 40007, bad);
    }
  });
});
