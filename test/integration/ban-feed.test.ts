import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import WebSocket from 'ws';
import { Scrape } from '../support/prometheus.js';
import { startTestServer, tempDir } from '../support/server.js';

/**
 * ntfy 2.26's abuse ban feed against a real server: refused requests strike the visitor's
 * network, and the one past ban-threshold appends a line that fail2ban's own fail2ban-regex
 * reads with the filter shipped in docs/fail2ban.
 */

const filter = new URL('../../../docs/fail2ban/filter.d-tocsin.conf', import.meta.url).pathname;
const fail2banRegex = spawnSync('fail2ban-regex', ['--version']).status === 0;

/** A server writing its ban feed to a fresh file, every refusal one strike, the second past the threshold. */
async function bannedBy(refuse: (url: string) => Promise<number>, settings: Record<string, unknown> = {}): Promise<{ lines: string[]; statuses: number[]; banLines: number }> {
  const file = join(tempDir(), 'ban.log');
  const s = await startTestServer({ 'ban-file': file, 'ban-threshold': 1, 'ban-weights': ['*:1'], 'enable-metrics': true, ...settings });
  try {
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push(await refuse(s.url));
    const banLines = (await Scrape.of(`${s.url}/metrics`)).value('tocsin_ban_lines_total');
    await s.server.close(); // flushes the feed
    return { lines: readFileSync(file, 'utf8').split('\n').filter((l) => l !== ''), statuses, banLines };
  } finally {
    await s.server.close();
  }
}

/** A delayed message without the cache: a certain 400/40002. */
const delayedUncached = async (url: string): Promise<number> => (await fetch(`${url}/mytopic`, { method: 'PUT', body: 'x', headers: { Cache: 'no', In: '30 min' } })).status;

const line = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ) 127\.0\.0\.1 127\.0\.0\.1\/32 (\d{3}) (\d{5})$/;

describe('ban feed', () => {
  it('three refusals past threshold 1 write one line: RFC 3339 UTC time, address, network, status, code', async () => {
    const before = Math.floor(Date.now() / 1000) * 1000;
    const { lines, statuses, banLines } = await bannedBy(delayedUncached);
    assert.deepEqual(statuses, [400, 400, 400]);
    assert.equal(lines.length, 1);
    const [, time, status, code] = line.exec(lines[0] as string) ?? [];
    assert.deepEqual([status, code], ['400', '40002']);
    assert.ok(Date.parse(time as string) >= before && Date.parse(time as string) <= Date.now(), time);
    assert.equal(banLines, 1);
  });

  it('a WebSocket upgrade refused before the upgrade strikes too (no bypass by upgrade headers)', async () => {
    const upgrade = (url: string): Promise<number> =>
      new Promise((resolve) => new WebSocket(`${url.replace('http', 'ws')}/mytopic/ws`).on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)));
    const { lines, statuses } = await bannedBy(upgrade, { 'auth-file': join(tempDir(), 'auth.db'), 'auth-default-access': 'deny-all' });
    assert.deepEqual(statuses, [403, 403, 403]);
    assert.deepEqual(lines.map((l) => line.exec(l)?.slice(2)), [['403', '40301']]);
  });

  it('the default weights exempt quota refusals: a daily message limit hit 50 times writes nothing', async () => {
    const file = join(tempDir(), 'ban.log');
    const s = await startTestServer({ 'ban-file': file, 'ban-threshold': 1, 'visitor-message-daily-limit': 1 });
    await fetch(`${s.url}/quota`, { method: 'POST', body: 'x' });
    for (let i = 0; i < 50; i++) assert.equal((await fetch(`${s.url}/quota`, { method: 'POST', body: 'x' })).status, 429);
    await s.server.close();
    assert.equal(readFileSync(file, 'utf8'), '');
  });

  it('fail2ban-regex with docs/fail2ban/filter.d-tocsin.conf finds the offender\'s address in the lines', { skip: !fail2banRegex && 'fail2ban-regex is not installed' }, async () => {
    const { lines } = await bannedBy(delayedUncached);
    const file = join(tempDir(), 'feed.log');
    // The server's line, and one of an IPv6 network, as the feed writes them.
    writeFileSync(file, `${lines[0] as string}\n2026-07-10T12:35:56Z 2001:db8::abcd 2001:db8:0:0:0:0:0:0/64 429 42909\n`);
    const ips = execFileSync('fail2ban-regex', ['--out', 'ip', file, filter], { encoding: 'utf8' }).trim().split('\n');
    assert.deepEqual(ips, ['127.0.0.1', '2001:db8::abcd']);
    const summary = execFileSync('fail2ban-regex', [file, filter], { encoding: 'utf8' });
    assert.match(summary, /Lines: 2 lines, 0 ignored, 2 matched, 0 missed/);
  });
});
