import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { goDuration, humanSize, rfc822, unixDate } from '../../src/cli/go-format.js';

describe('Go formats of the CLI output', () => {
  it('times as time.UnixDate and time.RFC822 in UTC', () => {
    const t = new Date(Date.UTC(2026, 0, 2, 3, 4, 5));
    assert.equal(unixDate(t), 'Fri Jan  2 03:04:05 UTC 2026');
    assert.equal(unixDate(new Date(Date.UTC(2026, 10, 22, 23, 5, 0))), 'Sun Nov 22 23:05:00 UTC 2026');
    assert.equal(rfc822(t), '02 Jan 26 03:04 UTC');
  });

  it('durations as time.Duration.String()', () => {
    assert.deepEqual([0, 45, 90, 3600, 43_200, 86_400, 5_430].map(goDuration), ['0s', '45s', '1m30s', '1h0m0s', '12h0m0s', '24h0m0s', '1h30m30s']);
    assert.deepEqual([56.553, 2.003, 62.5, 0.553, 0.0004, 3600.01].map(goDuration), ['56.553s', '2.003s', '1m2.5s', '553ms', '0s', '1h0m0.01s']);
  });

  it('sizes as ntfy\'s FormatSizeHuman', () => {
    assert.deepEqual([512, 1024, 1536, 15 * 1024 * 1024, 5 * 1024 ** 3].map(humanSize), ['512 bytes', '1.0 KB', '1.5 KB', '15.0 MB', '5.0 GB']);
  });
});
