import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { errors } from '../../src/model/errors.js';
import { RejectionLog } from '../../src/transports/http/rejections.js';
import type { RequestInfo } from '../../src/transports/http/request.js';
import { LogCapture } from '../support/log.js';

const req = (path: string, seen: RequestInfo['seen'] = {}): RequestInfo => ({
  method: 'POST',
  path,
  headers: new Map(),
  query: new Map([['auth', 'secret']]),
  remoteAddress: '198.51.100.7',
  seen,
});

/** A RejectionLog on a clock the test moves, with its timers run by hand. */
function setup(perSecond = 3): { log: RejectionLog; capture: LogCapture; clock: { now: number }; timers: (() => void)[] } {
  const capture = new LogCapture('info');
  const clock = { now: 10_000 };
  const timers: (() => void)[] = [];
  const log = new RejectionLog(capture.logger, (r) => r.remoteAddress, {
    perSecond,
    now: () => clock.now,
    schedule: (run, ms) => {
      assert.ok(ms > 0 && ms <= 1000, `summary due within the second, not in ${ms} ms`);
      timers.push(run);
    },
  });
  return { log, capture, clock, timers };
}

describe('rejection log', () => {
  it('one info line with visitor, user, topics, code, method and path (never the query)', () => {
    const { log, capture } = setup();
    log.record(req('/ops', { user: 'ben', topics: ['ops', 'alerts'] }), errors.forbidden, errors.forbidden);
    assert.equal(typeof capture.records[0]?.time, 'number');
    assert.deepEqual(capture.records.map((r) => ({ ...r, time: undefined })), [{
      time: undefined,
      level: 30,
      visitor_ip: '198.51.100.7',
      user_name: 'ben',
      topic: 'ops,alerts',
      error_code: 40301,
      http_status: 403,
      http_method: 'POST',
      http_path: '/ops',
      msg: 'HTTP 403 (ntfy error 40301): forbidden',
    }]);
  });

  it('an anonymous request without topics names only the visitor', () => {
    const { log, capture } = setup();
    log.record(req('/nowhere'), errors.notFound, errors.notFound);
    assert.equal(capture.records[0]?.user_name, undefined);
    assert.equal(capture.records[0]?.topic, undefined);
    assert.equal(capture.records[0]?.visitor_ip, '198.51.100.7');
  });

  it('a thrown fault (50001) is an error line carrying what was thrown', () => {
    const { log, capture } = setup();
    log.record(req('/t'), errors.internal, new Error('disk on fire'));
    const [line] = capture.records;
    assert.equal(line?.level, 50);
    assert.equal(line?.error_code, 50001);
    assert.equal((line?.err as { message: string }).message, 'disk on fire');
  });

  it('past perSecond lines the rest are counted, and one summary follows when the second is over', () => {
    const { log, capture, clock, timers } = setup(3);
    for (let i = 0; i < 10; i++) log.record(req(`/t${i}`), errors.tooManyRequests, errors.tooManyRequests);
    assert.deepEqual(capture.records.map((r) => r.http_path), ['/t0', '/t1', '/t2']);
    assert.equal(timers.length, 1, 'one timer for the summary, not one per line');
    clock.now += 1000;
    timers[0]!();
    assert.deepEqual(capture.records.slice(3).map((r) => [r.suppressed, r.msg]), [[7, '7 more rejected requests not logged (over 3 a second)']]);
    log.record(req('/later'), errors.tooManyRequests, errors.tooManyRequests);
    assert.equal(capture.records.at(-1)?.http_path, '/later', 'a new second logs again');
    assert.equal(capture.records.length, 5);
  });

  it('the summary comes with the next second\'s first line when that arrives before the timer', () => {
    const { log, capture, clock, timers } = setup(1);
    log.record(req('/a'), errors.forbidden, errors.forbidden);
    log.record(req('/b'), errors.forbidden, errors.forbidden);
    clock.now += 1500;
    log.record(req('/c'), errors.forbidden, errors.forbidden);
    assert.deepEqual(capture.records.map((r) => r.suppressed ?? r.http_path), ['/a', 1, '/c']);
    timers[0]!();
    assert.equal(capture.records.length, 3, 'the late timer finds nothing left to say');
  });
});
