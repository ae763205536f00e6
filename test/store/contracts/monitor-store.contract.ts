import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MonitorSettings } from '../../../src/monitors/monitor.js';
import { MonitorExists, TooManyMonitors, type MonitorStore } from '../../../src/store/monitor-store.js';
import { closedAfter, pair, type Open } from './instances.js';

const settings: MonitorSettings = { period: 300, grace: 60, alertTopic: 'alerts', alertPriority: 4 };

/**
 * The contract of the MonitorStore port (src/store/monitor-store.ts), for every backend: a
 * runner calls this with the backend's factory. Each case opens its own fresh store.
 */
export function describeMonitorStore(name: string, open: Open<MonitorStore>): void {
  describe(`monitor store contract — ${name}`, () => {
    const opened = closedAfter(open);
    const store = async (): Promise<MonitorStore> => (await opened()).instance;

    it('add stores a pending monitor never seen; list is by owner, ordered by key; get finds one', async () => {
      const s = await store();
      const added = await s.add('phil', 'scanner', settings, 10, 1000);
      assert.deepEqual(added, { user: 'phil', key: 'scanner', ...settings, state: 'pending', lastSeenAt: 0, createdAt: 1000 });
      await s.add('phil', 'backup', { ...settings, alertPriority: 5 }, 10, 1001);
      await s.add('ben', 'scanner', settings, 10, 1002);
      assert.deepEqual((await s.list('phil')).map((m) => m.key), ['backup', 'scanner']);
      assert.deepEqual((await s.list('ben')).map((m) => [m.user, m.key]), [['ben', 'scanner']]);
      assert.deepEqual(await s.get('phil', 'scanner'), added);
      assert.equal(await s.get('nobody', 'scanner'), undefined);
      assert.deepEqual(await s.list('nobody'), []);
    });

    it('a key the owner holds is MonitorExists; past the limit TooManyMonitors; neither changes anything', async () => {
      const s = await store();
      await s.add('phil', 'a', settings, 2, 1000);
      await assert.rejects(s.add('phil', 'a', { ...settings, period: 60 }, 2, 1001), MonitorExists);
      await s.add('phil', 'b', settings, 2, 1000);
      await assert.rejects(s.add('phil', 'c', settings, 2, 1000), TooManyMonitors);
      await assert.rejects(s.add('phil', 'a', settings, 2, 1000), MonitorExists, 'at the limit, an existing key is still a conflict');
      assert.deepEqual((await s.list('phil')).map((m) => [m.key, m.period]), [['a', 300], ['b', 300]]);
      await s.add('ben', 'a', settings, 2, 1000);
    });

    it('update changes the settings given and nothing else; an absent monitor is undefined', async () => {
      const s = await store();
      await s.add('phil', 'a', settings, 10, 1000);
      const updated = await s.update('phil', 'a', { grace: 30, alertTopic: 'ops' });
      assert.deepEqual(updated, { user: 'phil', key: 'a', period: 300, grace: 30, alertTopic: 'ops', alertPriority: 4, state: 'pending', lastSeenAt: 0, createdAt: 1000 });
      assert.equal(await s.update('ben', 'a', { grace: 30 }), undefined);
    });

    it('a heartbeat makes a monitor up and says its state before; stale ones are up past period + grace; markDown only those', async () => {
      const s = await store();
      await s.add('phil', 'a', settings, 10, 1000);
      await s.add('phil', 'never', settings, 10, 1000);
      assert.equal(await s.heartbeat('phil', 'ghost', 1100), undefined);
      const beat = await s.heartbeat('phil', 'a', 1100);
      assert.deepEqual([beat?.previous, beat?.monitor.state, beat?.monitor.lastSeenAt], ['pending', 'up', 1100]);
      assert.deepEqual(await s.stale(1100 + 360), [], 'at period + grace exactly it is not stale yet');
      assert.deepEqual((await s.stale(1100 + 361)).map((m) => m.key), ['a'], 'the pending one never is');
      assert.equal(await s.markDown('phil', 'a', 1100 + 300), false, 'not stale at that time');
      assert.equal(await s.markDown('phil', 'a', 1100 + 361), true);
      assert.equal(await s.markDown('phil', 'a', 1100 + 361), false, 'down already');
      assert.equal((await s.get('phil', 'a'))?.state, 'down');
      assert.deepEqual(await s.stale(99_999), [], 'down ones are not stale again');
      const again = await s.heartbeat('phil', 'a', 2000);
      assert.deepEqual([again?.previous, again?.monitor.state], ['down', 'up']);
    });

    it('a heartbeat after the stale check wins over markDown', async () => {
      const s = await store();
      await s.add('phil', 'a', settings, 10, 1000);
      await s.heartbeat('phil', 'a', 1000);
      const [stale] = await s.stale(2000);
      assert.equal(stale?.key, 'a');
      await s.heartbeat('phil', 'a', 1999);
      assert.equal(await s.markDown('phil', 'a', 2000), false);
      assert.equal((await s.get('phil', 'a'))?.state, 'up');
    });

    it('remove and removeByUser answer how many went', async () => {
      const s = await store();
      for (const key of ['a', 'b']) await s.add('phil', key, settings, 10, 1000);
      await s.add('ben', 'a', settings, 10, 1000);
      assert.equal(await s.remove('phil', 'a'), 1);
      assert.equal(await s.remove('phil', 'a'), 0);
      assert.equal(await s.removeByUser('phil'), 1);
      assert.deepEqual((await s.list('ben')).map((m) => m.key), ['a']);
    });

    it('two instances on one database see each other\'s changes', async () => {
      const [a, b] = await pair(opened);
      await a.add('phil', 'shared', settings, 10, 1000);
      await assert.rejects(b.add('phil', 'shared', settings, 10, 1000), MonitorExists);
      await b.heartbeat('phil', 'shared', 1500);
      assert.equal((await a.get('phil', 'shared'))?.lastSeenAt, 1500);
    });
  });
}
