import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { parseAlertRequest, type AlertLimits } from '../../src/alerts/alert-request.js';
import { HttpError } from '../../src/model/errors.js';
import type { RequestInfo } from '../../src/transports/http/request.js';

const limits: AlertLimits = {
  repeat: { minIntervalMs: 60_000, untilDefaultMs: 3_600_000, untilLimitMs: 12 * 3_600_000, callbackAllowPrivate: false },
  smtpSender: {},
  twilio: {},
};

/** A request with these headers (lower-cased, as uWS gives them). */
const request = (headers: Record<string, string>): RequestInfo =>
  ({ method: 'POST', path: '/alerts', headers: new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])), query: new Map(), seen: {} }) as unknown as RequestInfo;

const parse = (headers: Record<string, string>, over: Partial<AlertLimits> = {}): ReturnType<typeof parseAlertRequest> => parseAlertRequest(request(headers), { ...limits, ...over });
const codeOf = (run: () => unknown): number | undefined => {
  try {
    run();
    return undefined;
  } catch (err) {
    return (err as HttpError).code;
  }
};

describe('alert request — Repeat, Repeat-Until, Callback, Escalate', () => {
  it('no Repeat is no alert; Repeat-Until defaults to repeat-until-default, at least one interval, at most the limit', () => {
    assert.equal(parse({}), undefined);
    assert.deepEqual(parse({ Repeat: '5m' }), { everyMs: 300_000, untilMs: 3_600_000, callback: undefined, escalations: [] });
    assert.equal(parse({ Repeat: '2h' })?.untilMs, 7_200_000, 'one interval when the default is shorter');
    assert.equal(parse({ 'X-Repeat': '5m', 'X-Repeat-Until': '2 hours' })?.untilMs, 7_200_000);
  });

  it('Escalate: steps in order, channels and targets as given (yes for the user\'s own)', () => {
    assert.deepEqual(parse({ Repeat: '5m', 'Repeat-Until': '2h', Escalate: '15m email ops@example.com, 30m CALL +15551234567,1h email yes' })?.escalations, [
      { afterMs: 900_000, via: 'email', to: 'ops@example.com' },
      { afterMs: 1_800_000, via: 'call', to: '+15551234567' },
      { afterMs: 3_600_000, via: 'email', to: 'yes' },
    ]);
  });

  it('a channel this server lacks is its own code: e-mail 40001, calls 40032', () => {
    assert.equal(codeOf(() => parse({ Repeat: '5m', Escalate: '15m email ops@example.com' }, { smtpSender: undefined })), 40001);
    assert.equal(codeOf(() => parse({ Repeat: '5m', Escalate: '15m call +15551234567' }, { twilio: undefined })), 40032);
  });

  it('a Callback is https:// unless repeat-callback-allow-private', () => {
    assert.equal(codeOf(() => parse({ Repeat: '5m', Callback: 'http://hooks.example/ack' })), 40097);
    assert.equal(parse({ Repeat: '5m', Callback: 'https://hooks.example/ack' })?.callback, 'https://hooks.example/ack');
    assert.equal(parse({ Repeat: '5m', Callback: 'http://10.0.0.1/ack' }, { repeat: { ...limits.repeat, callbackAllowPrivate: true } })?.callback, 'http://10.0.0.1/ack');
  });

  it('property: any header values give an alert within the bounds, or a 400 of the feature\'s codes (or 40001/40032 for a channel)', () => {
    const value = fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom('', '5m', '1h', '0', '-1m', '1e400h', '59s', '13h', 'yes', 'https://a.example/', 'javascript:x', '15m email a@b.c', '1m call +1', ' , ,'));
    fc.assert(fc.property(value, value, value, value, (repeat, until, callback, escalate) => {
      let alert: ReturnType<typeof parseAlertRequest>;
      try {
        alert = parse({ Repeat: repeat, 'Repeat-Until': until, Callback: callback, Escalate: escalate });
      } catch (err) {
        assert.ok(err instanceof HttpError, `escaped: ${String(err)}`);
        assert.ok([40095, 40096, 40097, 40098, 40099].includes(err.code) && err.http === 400, `code ${err.code}`);
        return;
      }
      if (alert === undefined) return assert.equal(repeat.trim(), '');
      assert.ok(alert.everyMs >= 60_000 && alert.everyMs <= alert.untilMs && alert.untilMs <= 12 * 3_600_000);
      assert.ok(alert.escalations.length <= 5 && alert.escalations.every((e) => e.afterMs >= 1000 && e.afterMs <= alert!.untilMs));
    }), { numRuns: 2000 });
  });
});
