import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SpendLedger, SpendReport } from '../../../src/store/spend-ledger.js';

/** Two ledgers (two nodes, each on its own connection) on one fresh database, dated by `clock`, and how many reports it holds. */
export type LedgerPair = (clock: { now: number }) => Promise<{ a: SpendLedger; b: SpendLedger; count: () => Promise<number> }>;

export const report = (node: string, requests: number[], full = false): SpendReport => ({
  node,
  full,
  spends: requests.map((r, i) => ({ key: `10.0.0.${i}`, requests: r, messages: 0, emails: 0, bytes: 0 })),
  holds: [{ key: '10.0.0.0', subscriptions: requests.length }],
});

/** The contract of the SpendLedger port (src/store/spend-ledger.ts), for every backend. */
export function describeSpendLedger(name: string, pair: LedgerPair): void {
  describe(`spend ledger contract — ${name}`, () => {
    it('answers each report of the other nodes once, in their order, never a node\'s own', async () => {
      const clock = { now: 1_700_000_000_000 };
      const { a, b } = await pair(clock);
      assert.deepEqual(await a.exchange(report('a', [1])), []);
      assert.deepEqual(await a.exchange(report('a', [2])), []);
      const got = await b.exchange(report('b', [7]));
      assert.deepEqual(got.map((r) => [r.node, r.spends[0]?.requests]), [['a', 1], ['a', 2]]);
      clock.now += 250;
      assert.deepEqual(await b.exchange(report('b', [8])), [], 'read already');
      assert.deepEqual((await a.exchange(report('a', [3]))).map((r) => r.spends[0]?.requests), [7, 8]);
      clock.now += 250;
      assert.deepEqual((await b.exchange(report('b', []))).map((r) => r.spends[0]?.requests), [3]);
    });

    it('deletes reports a minute old', async () => {
      const clock = { now: 1_700_000_000_000 };
      const { a, count } = await pair(clock);
      for (let i = 0; i < 39; i++) await a.exchange(report('a', [1]));
      assert.equal(await count(), 39);
      clock.now += 61_000;
      await a.exchange(report('a', [1])); // the 40th exchange cleans up
      assert.equal(await count(), 1);
    });
  });
}
