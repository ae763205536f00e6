import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { HttpError } from '../../../src/model/errors.js';
import { parseTtl } from '../../../src/transports/publish/ttl.js';

const invalid = (err: unknown): boolean => err instanceof HttpError && err.code === 40094 && err.http === 400;

describe('ttl — parsing the TTL parameter', () => {
  it('takes ntfy\'s duration syntax, as cache-duration does', () => {
    assert.equal(parseTtl('30m'), 1_800_000);
    assert.equal(parseTtl('1h30m'), 5_400_000);
    assert.equal(parseTtl('2 days'), 172_800_000);
    assert.equal(parseTtl('1s'), 1000);
    assert.equal(parseTtl(' 90s '), 90_000);
  });

  it('refuses anything else, and less than a second, with 40094', () => {
    for (const bad of ['', '0', '0s', '999ms', '-1h', '12', 'soon', '3 weeks', '1h 30m']) assert.throws(() => parseTtl(bad), invalid, bad);
  });

  it('property: any input is either at least a second or 40094, never another error', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 64 }), (input) => {
        try {
          return parseTtl(input) >= 1000;
        } catch (err) {
          return invalid(err);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('property: a whole number of hours, minutes or seconds reads back exactly', () => {
    const units = { h: 3_600_000, m: 60_000, s: 1000 } as const;
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), fc.constantFrom('h', 'm', 's'), (n, unit) => parseTtl(`${n}${unit}`) === n * units[unit]),
    );
  });
});
