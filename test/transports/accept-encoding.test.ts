import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { acceptedEncodings } from '../../src/transports/web/accept-encoding.js';

describe('web files — Accept-Encoding', () => {
  it('prefers brotli whenever allowed, whatever the order or weights', () => {
    assert.deepEqual(acceptedEncodings('gzip, deflate, br, zstd'), ['br', 'gzip']);
    assert.deepEqual(acceptedEncodings('gzip;q=1.0, br;q=0.5'), ['br', 'gzip']);
  });

  it('leaves out a coding refused with q=0 or not named', () => {
    assert.deepEqual(acceptedEncodings('br;q=0, gzip'), ['gzip']);
    assert.deepEqual(acceptedEncodings('gzip'), ['gzip']);
    assert.deepEqual(acceptedEncodings('identity'), []);
  });

  it('reads * as every coding not named, and no header as none', () => {
    assert.deepEqual(acceptedEncodings('*'), ['br', 'gzip']);
    assert.deepEqual(acceptedEncodings('*;q=0.1, gzip;q=0'), ['br']);
    assert.deepEqual(acceptedEncodings(undefined), []);
    assert.deepEqual(acceptedEncodings(''), []);
  });
});
