import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { pino } from 'pino';
import { BanFeed } from '../../src/visitors/ban-feed.js';
import { defaultBanWeights, parseBanWeights, weightOf } from '../../src/visitors/ban-weights.js';
import { visitorNetwork } from '../../src/visitors/address.js';
import { tempDir } from '../support/server.js';

const silent = pino({ level: 'silent' });

/** A feed on a fresh file with a clock the test moves; `lines()` reads the file once the feed is closed. */
function feed(threshold: number, weights: string[], options: { windowMs?: number; maxNetworks?: number } = {}) {
  const file = join(tempDir(), 'ban.log');
  let now = Date.parse('2026-07-10T12:34:56.789Z');
  const bans = new BanFeed(
    { file, windowMs: options.windowMs ?? 60_000, threshold, weights: parseBanWeights(weights) },
    (address) => visitorNetwork(address, 32, 64),
    silent,
    () => now,
    options.maxNetworks,
  );
  return {
    bans,
    advance: (ms: number) => (now += ms),
    lines: async (): Promise<string[]> => {
      await bans.close();
      return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((l) => l !== '') : [];
    },
  };
}

describe('ban weights — parsing', () => {
  it('the defaults: auth failures 10, quota refusals exempt, anything else 1', () => {
    const w = parseBanWeights(defaultBanWeights);
    assert.deepEqual([42909, 42908, 42903, 42905, 42910, 42901, 40301, 40401].map((c) => weightOf(w, c)), [10, 0, 0, 0, 0, 1, 1, 1]);
  });

  it('the longest key wins: an exact code, then a prefix, then a status family, then *; no match weighs 0', () => {
    const w = parseBanWeights(['42908:0', '42903:0', '42909:10', '429*:1', '403:2', '4*:1', '5*:1']);
    assert.deepEqual([42908, 42909, 42901, 40311, 40011, 50312, 30012].map((c) => weightOf(w, c)), [0, 10, 1, 2, 1, 1, 0]);
    assert.equal(weightOf(parseBanWeights(['4290:5', '*:1']), 42901), 1, 'four digits without a star are an exact code, which no five-digit code is');
  });

  it('a malformed entry is an error naming it (ntfy stops startup)', () => {
    for (const bad of ['401', '401:-1', '401:abc', 'abc:10', '4*3:10', ':1', '*:']) {
      assert.throws(() => parseBanWeights([bad]), (err: Error) => err.message.includes(JSON.stringify(bad)), bad);
    }
  });

  it('property: any entry list parses or throws an Error; a parsed one weighs every code at one of its weights or 0', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 12 }), { maxLength: 6 }), fc.integer({ min: 10000, max: 59999 }), (entries, code) => {
        let weights;
        try {
          weights = parseBanWeights(entries);
        } catch (err) {
          return err instanceof Error;
        }
        const weight = weightOf(weights, code);
        return weight === 0 || weights.some((w) => w.weight === weight);
      }),
    );
  });
});

describe('ban feed', () => {
  it('weight 2 against threshold 10: five refusals fit, the sixth writes one line in ntfy\'s format', async () => {
    const f = feed(10, ['*:2']);
    for (let i = 0; i < 5; i++) f.bans.record('1.2.3.4', 400, 40001);
    assert.equal(f.bans.lines, 0);
    f.bans.record('1.2.3.4', 400, 40001);
    assert.deepEqual(await f.lines(), ['2026-07-10T12:34:56Z 1.2.3.4 1.2.3.4/32 400 40001']);
  });

  it('one budget for every code; weight 0 never strikes; 2xx and 3xx never count', async () => {
    const f = feed(10, ['403*:2', '42908:0', '*:1']);
    for (let i = 0; i < 100; i++) f.bans.record('1.2.3.4', 429, 42908);
    for (let i = 0; i < 20; i++) f.bans.record('1.2.3.4', 200, 20000);
    for (let i = 0; i < 3; i++) f.bans.record('1.2.3.4', 403, 40301); // 6 strikes
    for (let i = 0; i < 4; i++) f.bans.record('1.2.3.4', 400, 40001); // 10: at the threshold, not past it
    assert.equal(f.bans.lines, 0);
    f.bans.record('1.2.3.4', 400, 40001);
    assert.equal(f.bans.lines, 1);
  });

  it('at most one line per network per window; the budget refills over the window', async () => {
    const f = feed(1, ['*:1']);
    for (let i = 0; i < 10; i++) f.bans.record('1.2.3.4', 429, 42901);
    f.advance(59_000);
    f.bans.record('1.2.3.4', 429, 42901); // 59/60 of a token back: past the budget, but within the window of the last line
    f.advance(1_000);
    f.bans.record('1.2.3.4', 429, 42901); // a whole token back: spent, no line
    f.bans.record('1.2.3.4', 429, 42901); // past the budget, a window after the last line
    assert.deepEqual(await f.lines(), ['2026-07-10T12:34:56Z 1.2.3.4 1.2.3.4/32 429 42901', '2026-07-10T12:35:56Z 1.2.3.4 1.2.3.4/32 429 42901']);
  });

  it('IPv6 addresses strike as their /64; the line names the address that breached', async () => {
    const f = feed(1, ['*:1']);
    f.bans.record('2001:db8::1', 429, 42901);
    f.bans.record('2001:db8::abcd', 429, 42901);
    assert.deepEqual(await f.lines(), ['2026-07-10T12:34:56Z 2001:db8::abcd 2001:db8:0:0:0:0:0:0/64 429 42901']);
  });

  it('held state is bounded: a flood of addresses keeps at most maxNetworks, housekeeping drops those a window quiet', async () => {
    const f = feed(100, ['*:1'], { maxNetworks: 1000 });
    for (let i = 0; i < 20_000; i++) f.bans.record(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`, 404, 40401);
    assert.ok(f.bans.size <= 1000 + 1000 / 8 + 1, `held ${f.bans.size}`);
    f.advance(60_001);
    f.bans.forget();
    assert.equal(f.bans.size, 0);
    assert.deepEqual(await f.lines(), []);
  });
});
