import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { VirtualTimeScheduler } from 'rxjs';
import { Keepalives, type KeepaliveSlot } from '../../src/transports/subscribe/keepalives.js';

/** A stream that notes the virtual time of each keepalive it gets. */
class Stream implements KeepaliveSlot {
  keepaliveDue: number | undefined;
  keepalivePrev: KeepaliveSlot | undefined;
  keepaliveNext: KeepaliveSlot | undefined;
  readonly at: number[] = [];

  constructor(
    private readonly clock: VirtualTimeScheduler,
    private readonly onKeepalive: () => void = () => undefined,
  ) {}

  keepalive(): void {
    this.at.push(this.clock.now());
    this.onKeepalive();
  }
}

/** Virtual time: `until(t)` runs everything due up to t and leaves the clock at t. */
function virtualClock(): { clock: VirtualTimeScheduler; until(t: number): void } {
  const clock = new VirtualTimeScheduler();
  return {
    clock,
    until: (t) => {
      clock.schedule(() => undefined, t - clock.now());
      clock.maxFrames = t;
      clock.flush();
    },
  };
}

describe('keepalives', () => {
  it('a listed stream gets one keepalive each interval, counted from when it was listed', () => {
    const { clock, until } = virtualClock();
    const keepalives = new Keepalives(1000, clock);
    const stream = new Stream(clock);
    until(300);
    keepalives.add(stream);
    keepalives.add(stream); // listed once however often it is added
    until(3500);
    assert.deepEqual(stream.at, [1300, 2300, 3300]);
  });

  it('each stream keeps its own phase; those due within the window (5%) go out with the earliest, never late', () => {
    const { clock, until } = virtualClock();
    const keepalives = new Keepalives(1000, clock);
    const [a, b, c] = [new Stream(clock), new Stream(clock), new Stream(clock)];
    keepalives.add(a);
    until(30);
    keepalives.add(b); // due 1030: within 50 ms of a's 1000
    until(400);
    keepalives.add(c); // due 1400
    until(2500);
    assert.deepEqual(a.at, [1000, 2000]);
    assert.deepEqual(b.at, [1000, 2000]);
    assert.deepEqual(c.at, [1400, 2400]);
  });

  it('a removed stream gets no more, and with none left no timer is set', () => {
    const { clock, until } = virtualClock();
    const keepalives = new Keepalives(1000, clock);
    const [a, b] = [new Stream(clock), new Stream(clock)];
    keepalives.add(a);
    until(500);
    keepalives.add(b);
    until(1200);
    keepalives.remove(a);
    keepalives.remove(a);
    until(2600);
    assert.deepEqual(a.at, [1000]);
    assert.deepEqual(b.at, [1500, 2500]);
    keepalives.remove(b);
    assert.equal(clock.actions.length, 0);
    keepalives.add(a); // listed again: a new phase
    until(4000);
    assert.deepEqual(a.at, [1000, 3600]);
  });

  it('a stream removed by its own keepalive (dropped as slow) leaves the others theirs', () => {
    const { clock, until } = virtualClock();
    const keepalives = new Keepalives(1000, clock);
    const dropped: Stream = new Stream(clock, () => keepalives.remove(dropped));
    const [before, after] = [new Stream(clock), new Stream(clock)];
    keepalives.add(before);
    keepalives.add(dropped);
    keepalives.add(after);
    until(2100);
    assert.deepEqual(dropped.at, [1000]);
    assert.deepEqual(before.at, [1000, 2000]);
    assert.deepEqual(after.at, [1000, 2000]);
  });

  it('an interval of 0 is taken as 1 ms rather than looping', () => {
    const { clock, until } = virtualClock();
    const keepalives = new Keepalives(0, clock);
    const stream = new Stream(clock);
    keepalives.add(stream);
    until(3);
    assert.deepEqual(stream.at, [1, 2, 3]);
  });
});
