import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fullSizes, quickSizes } from '../../bench/figures.js';
import { parseBenchFlags } from '../../bench/flags.js';

describe('bench — flags', () => {
  it('defaults: full sizes, one round, the ceiling, Tocsin on disk, no ntfy', () => {
    const flags = parseBenchFlags([]);
    assert.deepEqual(flags, { sizes: fullSizes, rounds: 1, inMemory: false, ceiling: true, table: false });
  });

  it('--vs-ntfy, --rounds, --table, --in-memory and --only are read', () => {
    const flags = parseBenchFlags(['--vs-ntfy', '/opt/ntfy', '--rounds', '3', '--table', '--in-memory', '--only', 'publish,idle']);
    assert.equal(flags.vsNtfy, '/opt/ntfy');
    assert.equal(flags.rounds, 3);
    assert.equal(flags.table, true);
    assert.equal(flags.inMemory, true);
    assert.deepEqual(flags.only, ['publish', 'idle']);
  });

  it('size flags replace the sizes of --quick or the full run', () => {
    const flags = parseBenchFlags(['--quick', '--subscribers', '1000,10000', '--formats', 'sse,json', '--idle-subscribers', '10000', '--replay-messages', '5000', '--publish-seconds', '3']);
    assert.deepEqual(flags.sizes.fanoutSubscribers, [1000, 10000]);
    assert.deepEqual(flags.sizes.fanoutFormats, ['sse', 'json']);
    assert.equal(flags.sizes.idleSubscribers, 10000);
    assert.equal(flags.sizes.replayMessages, 5000);
    assert.equal(flags.sizes.publishSeconds, 3);
    assert.deepEqual(parseBenchFlags(['--cluster-stores', 'postgres']).sizes.clusterStores, ['postgres']);
    assert.deepEqual(parseBenchFlags(['--cluster-stores', 'ferretdb,ferretdb-peers']).sizes.clusterStores, ['ferretdb', 'ferretdb-peers']);
    assert.equal(flags.sizes.mixedTopics, quickSizes.mixedTopics);
    assert.equal(quickSizes.fanoutSubscribers.length, 1, 'the defaults are not changed');
  });

  it('--cluster-nodes, --cluster-delays (0 is no proxy), --cluster-seconds and --cluster-subscribers are read', () => {
    const flags = parseBenchFlags(['--cluster-nodes', '1,3', '--cluster-delays', '0,5', '--cluster-seconds', '4', '--cluster-subscribers', '6']);
    assert.deepEqual(flags.sizes.clusterNodes, [1, 3]);
    assert.deepEqual(flags.sizes.clusterDelays, [0, 5]);
    assert.equal(flags.sizes.clusterSeconds, 4);
    assert.equal(flags.sizes.clusterSubscribers, 6);
    assert.throws(() => parseBenchFlags(['--cluster-delays', '1,-1']), /--cluster-delays wants a whole number, 0 or more, not "-1"/);
    assert.throws(() => parseBenchFlags(['--cluster-nodes', '0,1']), /--cluster-nodes wants a positive whole number, not "0"/);
  });

  it('--target with --target-pid', () => {
    const flags = parseBenchFlags(['--target', 'http://127.0.0.1:2586', '--target-pid', '4242', '--no-ceiling']);
    assert.equal(flags.target, 'http://127.0.0.1:2586');
    assert.equal(flags.targetPid, 4242);
    assert.equal(flags.ceiling, false);
  });

  it('refuses bad sizes, unknown formats and flags, and --target-pid alone', () => {
    assert.throws(() => parseBenchFlags(['--subscribers', '1000,ten']), /--subscribers wants a positive whole number, not "ten"/);
    assert.throws(() => parseBenchFlags(['--rounds', '0']), /--rounds wants a positive whole number/);
    assert.throws(() => parseBenchFlags(['--formats', 'ws,raw']), /--formats: raw is not one of ws, sse, json/);
    assert.throws(() => parseBenchFlags(['--cluster-stores', 'postgres,mysql']), /--cluster-stores: mysql is not one of ferretdb, ferretdb-peers, postgres/);
    assert.throws(() => parseBenchFlags(['--subscriber', '10']), /Unknown option '--subscriber'/);
    assert.throws(() => parseBenchFlags(['--target-pid', '1']), /--target-pid needs --target/);
  });
});
