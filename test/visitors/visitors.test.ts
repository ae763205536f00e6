import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig } from '../../src/config/load.js';
import type { User } from '../../src/model/access.js';
import { Visitors } from '../../src/visitors/visitors.js';
import { codeOf } from '../support/errors.js';


function visitors(flags: Record<string, unknown>, max = 100_000, clock = { now: 0 }): Visitors {
  return new Visitors(loadConfig({ flags }).config, { maxVisitors: max, now: () => clock.now });
}

describe('visitors', () => {
  it('allow the request burst, then one request per interval (42901)', () => {
    const clock = { now: 0 };
    const v = visitors({ 'visitor-request-limit-burst': 3, 'visitor-request-limit-replenish': '1s' }, 10, clock).of('203.0.113.5', undefined, undefined);
    assert.deepEqual([0, 0, 0, 0].map(() => codeOf(() => v.request(clock.now))), [undefined, undefined, undefined, 42901]);
    clock.now = 1000;
    assert.deepEqual([0, 0].map(() => codeOf(() => v.request(clock.now))), [undefined, 42901]);
  });

  it('never limit exempt hosts', () => {
    const v = visitors({ 'visitor-request-limit-burst': 1, 'visitor-request-limit-exempt-hosts': ['203.0.113.0/24'] }).of('203.0.113.5', undefined, undefined);
    for (let i = 0; i < 100; i++) v.request(0);
    assert.equal(v.exempt, true);
  });

  it('count messages per day (42908) and subscriptions (42903)', () => {
    const v = visitors({ 'visitor-message-daily-limit': 2, 'visitor-subscription-limit': 1 }).of('203.0.113.5', undefined, undefined);
    assert.deepEqual([0, 0, 0].map(() => codeOf(() => v.message(1000))), [undefined, undefined, 42908]);
    assert.equal(v.messages(1000), 2);
    assert.equal(codeOf(() => v.message(86_400_000 + 1)), undefined, 'a new day starts over');
    v.subscribe();
    assert.equal(codeOf(() => v.subscribe()), 42903);
    v.unsubscribe();
    assert.equal(codeOf(() => v.subscribe()), undefined);
  });

  it('spend daily bandwidth as a bucket of a day\'s bytes, refilled over the day; exempt hosts too', () => {
    const v = visitors({ 'visitor-attachment-daily-bandwidth-limit': '1000', 'visitor-request-limit-exempt-hosts': ['203.0.113.0/24'] }).of('203.0.113.5', undefined, undefined);
    assert.deepEqual([v.transfer(600, 0), v.transfer(600, 0), v.bandwidthLeft(0)], [true, false, 400], 'a refused transfer takes nothing');
    assert.equal(v.bandwidthLeft(43_200_000), 900, 'half a day brings back half the limit');
    assert.equal(v.bandwidthLeft(200_000_000), 1000, 'never more than the limit');
  });

  it('find the owner of an upload by its key, seen or not', () => {
    const registry = visitors({ 'visitor-attachment-daily-bandwidth-limit': '1000' });
    registry.of('198.51.100.1', undefined, undefined);
    const seen = registry.of('198.51.100.1', undefined, undefined);
    assert.equal(registry.owner('198.51.100.1', undefined), seen);
    const user = { name: 'phil', tier: { messageLimit: 10, attachmentBandwidthLimit: 5000 } } as User;
    const owner = registry.owner('user:phil', user);
    assert.equal(owner.transfer(1000, 0), true, 'a first visit that moves bytes is kept');
    assert.deepEqual([owner.key, owner.limits.bandwidth, registry.owner('user:phil', undefined) === owner], ['user:phil', 5000, true]);
    assert.equal(registry.owner('user:phil', undefined).bandwidthLeft(0), 4000);
    assert.equal(registry.owner('2001:db8::/64', undefined).limits.bandwidth, 1000);
  });

  it('group by the forwarded address only behind a proxy, and a user on a tier by name', () => {
    const behind = visitors({ 'behind-proxy': true, 'proxy-trusted-hosts': ['10.0.0.0/8'] });
    assert.equal(behind.of('10.0.0.1', '198.51.100.7, 10.0.0.2', undefined).key, '198.51.100.7');
    assert.equal(visitors({}).of('10.0.0.1', undefined, undefined).key, '10.0.0.1');
    const user = { name: 'phil', tier: { messageLimit: 10_000 } } as User;
    const v = behind.of('10.0.0.1', '198.51.100.7', user);
    assert.equal(v.key, 'user:phil');
    assert.deepEqual([v.limits.messages, v.limits.requestBurst], [10_000, 500], 'the tier\'s messages, and 5% of them as burst');
  });

  it('charge a second visit what the first spent: its request, message and e-mail', () => {
    const registry = visitors({ 'visitor-request-limit-burst': 3, 'visitor-message-daily-limit': 2, 'visitor-email-limit-burst': 1 });
    const first = registry.of('198.51.100.1', undefined, undefined);
    first.request(0);
    first.message(0);
    first.email(0);
    const second = registry.of('198.51.100.1', undefined, undefined);
    assert.notEqual(second, first, 'a first visit is not held as an object');
    assert.deepEqual([second.messages(0), second.emails(0)], [1, 1]);
    assert.deepEqual([0, 0, 0].map(() => codeOf(() => second.request(0))), [undefined, undefined, 42901]);
    assert.deepEqual([0, 0].map(() => codeOf(() => second.message(0))), [undefined, 42908]);
    assert.equal(codeOf(() => second.email(0)), 42902);
  });

  it('count a user\'s calls per day against the tier (42910), none without one; a first visit\'s call keeps it', () => {
    const clock = { now: 1000 };
    const registry = visitors({}, 100_000, clock);
    const phil = { name: 'phil', tier: { messageLimit: 100, emailLimit: 10, callLimit: 2 } } as User;
    const first = registry.of('198.51.100.1', undefined, phil);
    first.call(clock.now);
    const second = registry.of('198.51.100.1', undefined, phil);
    assert.equal(second, first, 'held as an object once it placed a call');
    assert.deepEqual([codeOf(() => second.call(clock.now)), codeOf(() => second.call(clock.now)), second.calls(clock.now)], [undefined, 42910, 2]);
    clock.now += 86_400_000;
    assert.deepEqual([second.calls(clock.now), codeOf(() => second.call(clock.now))], [0, undefined], 'a new day (UTC)');
    assert.equal(codeOf(() => registry.of('198.51.100.2', undefined, undefined).call(clock.now)), 42910, 'no tier, no calls');
  });

  it('count a first visit\'s message on the regular visitor a concurrent request of its key made', () => {
    const registry = visitors({ 'visitor-message-daily-limit': 5 });
    const first = registry.of('198.51.100.1', undefined, undefined);
    const second = registry.of('198.51.100.1', undefined, undefined);
    first.message(0);
    assert.deepEqual([first.messages(0), second.messages(0)], [1, 1]);
  });

  it('forget idle visitors after a day, and hold no more than the cap', () => {
    const clock = { now: 0 };
    const registry = visitors({}, 3, clock);
    const busy = registry.of('198.51.100.1', undefined, undefined);
    busy.subscribe();
    for (const a of ['198.51.100.2', '198.51.100.3', '198.51.100.4', '198.51.100.5']) [1, 2].forEach(() => registry.of(a, undefined, undefined));
    assert.ok(registry.size <= 4, `held ${registry.size}: at most 3 idle, and the subscriber`);
    clock.now = 86_400_001;
    registry.forget(clock.now);
    assert.equal(registry.size, 1, 'only the one with a subscription stays');
    assert.equal(registry.of('198.51.100.1', undefined, undefined), busy);
  });
});
