import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { tempDir } from '../support/server.js';

const run = new URL('../../bench/run.js', import.meta.url).pathname;

describe('bench — quick mode', () => {
  it('runs every scenario against Tocsin and the ceiling and writes parseable JSON lines', { timeout: 480_000 }, async () => {
    const out = join(tempDir(), 'results.jsonl');
    await new Promise<void>((resolve, reject) =>
      execFile(process.execPath, [run, '--quick', '--out', out], { timeout: 470_000 }, (err, _stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve())),
    );
    const rows = readFileSync(out, 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    for (const scenario of ['publish', 'fanout', 'idle', 'replay', 'mixed']) {
      for (const server of ['tocsin', 'ceiling']) {
        assert.ok(rows.some((r) => r.scenario === scenario && r.server === server), `${scenario} on ${server}`);
      }
    }
    for (const row of rows) {
      assert.equal(typeof row.name, 'string');
      assert.equal(typeof row.value, 'number');
      assert.equal(typeof row.unit, 'string');
      assert.equal(typeof row.params, 'object');
    }
    assert.ok(rows.some((r) => r.server === 'tocsin' && typeof r.ratio === 'number'));
    const scheduled = (name: string): unknown => rows.find((r) => r.scenario === 'scheduled' && r.name === name)?.value;
    assert.equal(scheduled('scheduled messages delivered'), 10);
    assert.equal(scheduled('delivered after restart'), 20);
    assert.equal(scheduled('duplicates after restart'), 0);
    const auth = rows.filter((r) => r.scenario === 'auth').map((r) => (r.params as { credentials: string }).credentials);
    assert.deepEqual(auth, ['no auth-file', 'anonymous', 'basic', 'token']);
    const limits = rows.filter((r) => r.scenario === 'limits').map((r) => (r.params as { limits: string }).limits);
    assert.deepEqual(limits, ['on', 'off (exempt)']);
    const metrics = rows.filter((r) => r.scenario === 'publish' && (r.params as { metrics?: string }).metrics !== undefined).map((r) => (r.params as { metrics: string }).metrics);
    assert.deepEqual(metrics, ['off', 'on, scraped every second', 'off', 'on, scraped every second']);
    const stored = rows.filter((r) => r.scenario === 'publish' && r.name === 'publish rate' && (r.params as { cache?: string }).cache !== undefined);
    assert.deepEqual(stored.map((r) => (r.params as { cache: string }).cache), ['memory', 'none']);
    assert.ok(stored.every((r) => (r.value as number) > 0));
    const lag = rows.find((r) => r.server === 'tocsin' && r.name === 'publish paced client lag p99 at half rate');
    assert.ok(typeof lag?.value === 'number' && lag.value >= 0 && lag.value < 10_000);
    const email = new Set(rows.filter((r) => r.scenario === 'email').map((r) => r.name));
    for (const name of ['server main-thread CPU per publish', 'publish p99 at a fixed rate', 'mail in: end of DATA to subscriber p99']) assert.ok(email.has(name), name);
  });
});
