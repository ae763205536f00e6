import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseRange } from '../../src/transports/files.js';

describe('parseRange (Range: bytes=...)', () => {
  const cases: [string | undefined, number, ReturnType<typeof parseRange>][] = [
    [undefined, 10, undefined],
    ['bytes=2-5', 10, [2, 5]],
    ['bytes=2-', 10, [2, 9]],
    ['bytes=-3', 10, [7, 9]],
    ['bytes=-30', 10, [0, 9]],
    ['bytes=5-100', 10, [5, 9]],
    [' bytes=0-0 ', 10, [0, 0]],
    ['bytes=10-', 10, 'unsatisfiable'],
    ['bytes=5-2', 10, 'unsatisfiable'],
    ['bytes=-0', 10, 'unsatisfiable'],
    ['bytes=-', 10, undefined],
    ['bytes=0-1,4-5', 10, undefined],
    ['items=0-1', 10, undefined],
  ];
  for (const [header, size, expected] of cases) {
    it(`${JSON.stringify(header)} of ${size} bytes → ${JSON.stringify(expected)}`, () => assert.deepEqual(parseRange(header, size), expected));
  }
});
