import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadConfig } from '../../src/config/load.js';
import { HttpError } from '../../src/model/errors.js';
import { Visitors, type VisitorsOptions } from '../../src/visitors/visitors.js';

function visitors(flags: Record<string, unknown>, options: VisitorsOptions): Visitors {
  return new Visitors(loadConfig({ flags }).config, options);
}

/** The n-th distinct address: even ones IPv4, odd ones an IPv6 /64 each. */
const address = (n: number): string => (n % 2 === 0 ? `10.${(n >> 17) & 255}.${(n >> 9) & 255}.${(n >> 1) & 255}` : `2001:db8:${(n >> 16).toString(16)}:${(n & 0xffff).toString(16)}::1`);

/** Two requests from the n-th address: past its first visit, into the main table. */
const regular = (registry: Visitors, n: number): void => {
  registry.of(address(n), undefined, undefined);
  registry.of(address(n), undefined, undefined);
};

const limited = (f: () => void): boolean => {
  try {
    f();
    return false;
  } catch (err) {
    assert.ok(err instanceof HttpError);
    return true;
  }
};

describe('visitors — bounded under an address flood', () => {
  it('cost per new visitor does not grow with the table: the same entries touched at 1,000 and 100,000 held', () => {
    const perNewVisitor = (max: number): number => {
      const registry = visitors({}, { maxVisitors: max });
      for (let n = 0; n < max; n++) regular(registry, n);
      const before = registry.work;
      for (let n = max; n < 3 * max; n++) regular(registry, n);
      assert.ok(registry.size <= max + 100, `held ${registry.size} of at most ${max} + 100`);
      return (registry.work - before) / (2 * max);
    };
    const [small, large] = [perNewVisitor(1_000), perNewVisitor(100_000)];
    assert.ok(small <= 2.02 && large <= 2.02, `entries touched per new visitor: ${small} at 1,000, ${large} at 100,000`);
  });

  it('a flood of one-request addresses stays among the first visits, touches no table, and never pushes out a returning visitor', () => {
    const registry = visitors({ 'visitor-request-limit-burst': 2 }, { maxVisitors: 100, now: () => 0 });
    registry.of('198.51.100.1', undefined, undefined).request(0);
    const returning = registry.of('198.51.100.1', undefined, undefined);
    returning.request(0);
    const before = registry.work;
    for (let n = 0; n < 10_000; n++) registry.of(address(n), undefined, undefined);
    assert.equal(registry.of('198.51.100.1', undefined, undefined), returning);
    assert.equal(limited(() => returning.request(0)), true, 'its first request counted too: the burst of 2 is spent');
    assert.ok(registry.size <= 10_001, `held ${registry.size}`);
    assert.equal(registry.work - before, 0, 'no table walked');
    assert.equal(registry.evicted, 10_000 - (registry.size - 1), 'every first visit no longer remembered was replaced (the metric)');
  });

  it('a visitor active during the flood keeps its state: its empty bucket stays empty', () => {
    const registry = visitors({ 'visitor-request-limit-burst': 3 }, { maxVisitors: 1_000, now: () => 0 });
    registry.of('198.51.100.1', undefined, undefined);
    const active = registry.of('198.51.100.1', undefined, undefined);
    active.request(0);
    active.request(0);
    for (let n = 0; n < 10_000; n++) {
      registry.of(address(n), undefined, undefined);
      if (n % 100 === 0) assert.equal(registry.of('198.51.100.1', undefined, undefined), active);
    }
    assert.equal(limited(() => registry.of('198.51.100.1', undefined, undefined).request(0)), true);
  });

  it('a visitor holding a subscription is never evicted, and is evictable again once it closes it', () => {
    const registry = visitors({ 'visitor-subscription-limit': 1 }, { maxVisitors: 100 });
    const subscriber = registry.of('198.51.100.1', undefined, undefined);
    subscriber.subscribe();
    for (let n = 0; n < 1_000; n++) registry.of(address(n), undefined, undefined);
    const again = registry.of('198.51.100.1', undefined, undefined);
    assert.equal(again, subscriber);
    assert.equal(limited(() => again.subscribe()), true, 'the flood did not hand out a second subscription');
    subscriber.unsubscribe();
    for (let n = 1_000; n < 2_000; n++) regular(registry, n);
    assert.notEqual(registry.of('198.51.100.1', undefined, undefined), subscriber);
  });

  it('a visitor evicted while its request was in flight is held again when that request subscribes', () => {
    const registry = visitors({ 'visitor-subscription-limit': 1 }, { maxVisitors: 100 });
    registry.of('198.51.100.1', undefined, undefined);
    const inFlight = registry.of('198.51.100.1', undefined, undefined);
    for (let n = 0; n < 1_000; n++) regular(registry, n);
    inFlight.subscribe();
    assert.equal(registry.of('198.51.100.1', undefined, undefined), inFlight);
  });

  it('forgetting a day later visits only the visitors last seen over a day ago', () => {
    const clock = { now: 0 };
    const registry = visitors({}, { maxVisitors: 100_000, now: () => clock.now });
    for (let n = 0; n < 100; n++) regular(registry, n);
    clock.now = 86_400_000;
    for (let n = 100; n < 50_100; n++) regular(registry, n);
    clock.now = 86_400_001;
    const before = registry.work;
    registry.forget(clock.now);
    assert.deepEqual([registry.size, registry.work - before], [50_000, 100]);
  });
});

describe('visitors — UnifiedPush bills', () => {
  it('hold at most twice global-topic-limit bills; a live topic keeps its bill through a flood of others', () => {
    const live = new Set(['up_live_000000']);
    const registry = visitors({ 'global-topic-limit': 50 }, { isLive: (t) => live.has(t) });
    const app = registry.of('198.51.100.1', undefined, undefined);
    registry.billTo('up_live_000000', app);
    registry.billTo('up_gone_000000', app);
    const flooder = registry.of('198.51.100.2', undefined, undefined);
    for (let n = 0; n < 1_000; n++) registry.billTo(`up${String(n).padStart(12, '0')}`, flooder);
    assert.ok(registry.billed <= 100, `held ${registry.billed} bills`);
    assert.equal(registry.payer('up_live_000000', 0), app);
    assert.equal(registry.payer('up_gone_000000', 0), undefined, 'an evicted bill fails closed (50701)');
  });

  it('a bill lasts a day after its subscriber was last seen, and no longer', () => {
    const clock = { now: 0 };
    const registry = visitors({}, { now: () => clock.now });
    const app = registry.of('198.51.100.1', undefined, undefined);
    registry.billTo('up_aaaaaaaaaaaa', app);
    clock.now = 86_400_000;
    registry.forget(clock.now);
    assert.deepEqual([registry.billed, registry.payer('up_aaaaaaaaaaaa', clock.now)], [1, app]);
    clock.now = 86_400_001;
    registry.forget(clock.now);
    assert.equal(registry.billed, 0, 'housekeeping dropped it');
    assert.equal(registry.payer('up_aaaaaaaaaaaa', clock.now), undefined);
  });
});
