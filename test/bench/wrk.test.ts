import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { latencyMs, parseWrk } from '../../bench/load/wrk.js';

/** wrk 4.2's report, with the latencies a saturated server gives. */
const report = (p50: string, p99: string): string => `Running 10s test @ http://127.0.0.1:8080/bench
  1 threads and 64 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     1.21s   400.00ms   1.99s    70.00%
    Req/Sec     7.80k     1.20k   10.00k    75.00%
  Latency Distribution
     50%    ${p50}
     75%    1.40s
     90%    1.70s
     99%    ${p99}
  78123 requests in 10.01s, 12.34MB read
  Non-2xx or 3xx responses: 17
Requests/sec:   7804.50
Transfer/sec:      1.23MB
`;

describe('bench — wrk report', () => {
  it('latencyMs reads microseconds, milliseconds, seconds, minutes and hours', () => {
    assert.equal(latencyMs('812.00us'), 0.812);
    assert.equal(latencyMs('4.31ms'), 4.31);
    assert.equal(latencyMs('1.59s'), 1590);
    assert.equal(latencyMs('1.20m'), 72_000);
    assert.equal(latencyMs('1.00h'), 3_600_000);
  });

  it('latencyMs refuses what is not a wrk latency', () => {
    assert.throws(() => latencyMs('4.31'), /cannot read wrk latency "4.31"/);
    assert.throws(() => latencyMs('fast'), /cannot read wrk latency/);
  });

  it('parseWrk reads rate, requests, errors and percentiles in seconds and minutes', () => {
    assert.deepEqual(parseWrk(report('1.59s', '1.20m')), { requests: 78123, rps: 7804.5, p50: 1590, p99: 72_000, errors: 17 });
  });

  it('parseWrk reads sub-millisecond percentiles and no error line as 0 errors', () => {
    const text = report('812.00us', '3.02ms').replace('  Non-2xx or 3xx responses: 17\n', '');
    assert.deepEqual(parseWrk(text), { requests: 78123, rps: 7804.5, p50: 0.812, p99: 3.02, errors: 0 });
  });

  it('parseWrk fails with the output when the latency distribution is missing', () => {
    assert.throws(() => parseWrk('unable to connect to 127.0.0.1:1 Connection refused\n'), /cannot read wrk output: unable to connect/);
  });
});
