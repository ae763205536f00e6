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

  it('limit hits are the 413 and 429 refusals by code, over every method', async () => {
    const limitHits = new Counter({ name: 'l', help: 'l', labelNames: ['code'] as const, registers: [] });
    const counts = new RequestCounts();
    counts.refused(429, 42901, 'GET');
    counts.refused(429, 42901, 'POST');
    counts.refused(413, 41301, 'PUT');
    counts.refused(400, 40010, 'POST');
    counts.answered('GET');
    counts.fillLimitHits(limitHits);
    assert.deepEqual((await limitHits.get()).values.map((v) => [v.labels.code, v.value]), [['42901', 2], ['41301', 1]]);
    assert.deepEqual([...counts.limitHits()], [[42901, 2], [41301, 1]]);
  });
});
