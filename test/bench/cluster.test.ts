import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ferretDbSkip } from '../support/ferretdb.js';
import { tempDir } from '../support/server.js';

const run = new URL('../../bench/run.js', import.meta.url).pathname;
const names = ['publishes/s', 'deliveries/s', 'publish-to-receive p50', 'publish-to-receive p99', 'lost', 'duplicated', 'publish errors'];

interface Line {
  name: string;
  value: number;
  params: { store: string; nodes: number; delay: string; connections: string; topics: number };
}

describe('bench — cluster scenario', { skip: ferretDbSkip() }, () => {
  it('runs 2 nodes on FerretDB (unlinked and linked) and on PostgreSQL, directly and through a 1 ms proxy, and the SQLite node, on one topic and on 8; every figure printed, nothing lost', { timeout: 420_000 }, async () => {
    // when: the scenario runs tiny (a second of wrk per configuration)
    const out = join(tempDir(), 'results.jsonl');
    const args = [run, '--quick', '--only', 'cluster', '--no-ceiling', '--cluster-nodes', '2', '--cluster-delays', '0,1', '--cluster-topics', '1,8', '--cluster-seconds', '1', '--out', out];
    const [stdout, stderr] = await new Promise<[string, string]>((resolve, reject) =>
      execFile(process.execPath, args, { timeout: 410_000, maxBuffer: 64 << 20 }, (err, text, errors) => (err ? reject(new Error(`${err.message}\n${errors}`)) : resolve([text, errors]))),
    );
    // What the nodes warned of (a lost range, a failed read: pino's lines, on the harness's stdout) and the
    // subscriptions the harness found missing publishes or ended, to say why should a figure be off.
    const warned = `${stdout}\n${stderr}`.split('\n').filter((line) => /"level":(40|50)|^# cluster: .*(misses|ended|received)/.test(line)).slice(0, 20).join('\n');
    // then: each configuration has every figure, and every acknowledged publish reached every subscriber once
    const lines = readFileSync(out, 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as Line);
    const named = (l: Line): string => `${l.params.store} ${l.params.nodes} ${l.params.delay} ${l.params.connections} ${l.params.topics}`;
    const configurations = [...new Set(lines.map(named))];
    assert.deepEqual(configurations, [
      'sqlite 1 0ms 64 in all 1',
      'sqlite 1 0ms 64 in all 8',
      'ferretdb 2 0ms 64 in all 1',
      'ferretdb 2 0ms 64 in all 8',
      'ferretdb 2 1ms 64 in all 1',
      'ferretdb 2 1ms 64 in all 8',
      'ferretdb 2 1ms 64 per node 1',
      'ferretdb 2 1ms 64 per node 8',
      'ferretdb-peers 2 0ms 64 in all 1',
      'ferretdb-peers 2 0ms 64 in all 8',
      'ferretdb-peers 2 1ms 64 in all 1',
      'ferretdb-peers 2 1ms 64 in all 8',
      'ferretdb-peers 2 1ms 64 per node 1',
      'ferretdb-peers 2 1ms 64 per node 8',
      'postgres 2 0ms 64 in all 1',
      'postgres 2 0ms 64 in all 8',
      'postgres 2 1ms 64 in all 1',
      'postgres 2 1ms 64 in all 8',
      'postgres 2 1ms 64 per node 1',
      'postgres 2 1ms 64 per node 8',
    ]);
    for (const configuration of configurations) {
      const figures = lines.filter((l) => named(l) === configuration);
      assert.deepEqual(figures.map((f) => f.name), names, configuration);
      const value = (name: string): number | undefined => figures.find((f) => f.name === name)?.value;
      assert.equal(value('lost'), 0, `${configuration}: lost\n${warned}`);
      assert.equal(value('duplicated'), 0, `${configuration}: duplicated`);
      assert.equal(value('publish errors'), 0, `${configuration}: publish errors`);
      assert.ok((value('publishes/s') ?? 0) > 0 && (value('deliveries/s') ?? 0) > 0, `${configuration}: publishes and deliveries`);
      assert.ok((value('publish-to-receive p50') ?? NaN) > 0, `${configuration}: latency`);
    }
    assert.match(stdout, /\| store \| nodes \| delay \| connections \| topics \| shards \| publishes\/s \(req\/s\) \| deliveries\/s \(msg\/s\) \|/);
  });
});
