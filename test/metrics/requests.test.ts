import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Counter, Registry } from 'prom-client';
import { RequestCounts } from '../../src/metrics/requests.js';

describe('request counts', () => {
  it('fills ntfy_http_requests_total by outcome and method, odd methods as OTHER', async () => {
    // Given
    const registry = new Registry();
    const requests = new Counter({ name: 'r', help: 'r', labelNames: ['http_code', 'ntfy_code', 'http_method'] as const, registers: [registry] });
    const counts = new RequestCounts();
    // When
    counts.answered('POST');
    counts.answered('POST');
    counts.refused(429, 42901, 'GET');
    counts.refused(404, 40401, 'BREW');
    counts.refused(404, 40401, 'PROPFIND');
    counts.fill(requests);
    counts.fill(requests); // a second scrape must not add the counts twice
    // Then
    const values = (await requests.get()).values.map((v) => [v.labels.http_code, v.labels.ntfy_code, v.labels.http_method, v.value]);
    assert.deepEqual(values, [
      ['200', '20000', 'POST', 2],
      ['429', '42901', 'GET', 1],
      ['404', '40401', 'OTHER', 2],
    ]);
  });

  it('limit hits are the 413 and 429 refusals, and the 400s of template time and size, title and tags, by code over every method', async () => {
    const limitHits = new Counter({ name: 'l', help: 'l', labelNames: ['code'] as const, registers: [] });
    const counts = new RequestCounts();
    counts.refused(429, 42901, 'GET');
    counts.refused(429, 42901, 'POST');
    counts.refused(413, 41301, 'PUT');
    counts.refused(400, 40010, 'POST');
    counts.refused(429, 42911, 'GET');
    for (const code of [40055, 40056, 40057, 40058]) counts.refused(400, code, 'POST');
    counts.answered('GET');
    counts.fillLimitHits(limitHits);
    const expected: [number, number][] = [[42901, 2], [41301, 1], [42911, 1], [40055, 1], [40056, 1], [40057, 1], [40058, 1]];
    assert.deepEqual((await limitHits.get()).values.map((v) => [v.labels.code, v.value]), expected.map(([code, n]) => [String(code), n]));
    assert.deepEqual([...counts.limitHits()], expected);
  });
});
