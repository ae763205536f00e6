import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type pg from 'pg';
import { openPool } from '../../src/store/postgres/pool.js';
import { openSchema } from '../../src/store/postgres/schema.js';
import { PostgresSpendLedger } from '../../src/store/postgres/spend-ledger.js';
import { freshDatabase, postgresSkip } from '../support/postgres.js';
import { describeSpendLedger, report, type LedgerPair } from './contracts/spend-ledger.contract.js';

const pools: pg.Pool[] = [];
after(() => Promise.all(pools.map((p) => p.end())));

/** `count` ledgers on one fresh database, each on a pool of its own, dated by `clock`. */
async function ledgers(count: number, clock: { now: number }): Promise<{ ledgers: PostgresSpendLedger[]; pool: pg.Pool }> {
  const url = await freshDatabase('ledger');
  const opened = Array.from({ length: count }, () => openPool(url));
  pools.push(...opened);
  await openSchema(opened[0] as pg.Pool);
  return { ledgers: opened.map((pool) => new PostgresSpendLedger(pool, () => clock.now)), pool: opened[0] as pg.Pool };
}

const pair: LedgerPair = async (clock) => {
  const { ledgers: [a, b], pool } = await ledgers(2, clock);
  const count = async (): Promise<number> => (await pool.query<{ n: number }>('SELECT count(*) AS n FROM spend_reports')).rows[0]?.n ?? 0;
  return { a: a as PostgresSpendLedger, b: b as PostgresSpendLedger, count };
};

describe('spend ledger on PostgreSQL', { skip: postgresSkip() }, () => {
  describeSpendLedger('postgresql', pair);

  it('three nodes exchanging at once each get every report of the others once, in each node\'s order', async () => {
    // given: three nodes that all exchanged once
    const clock = { now: Date.now() };
    const { ledgers: nodes } = await ledgers(3, clock);
    const names = ['a', 'b', 'c'];
    await Promise.all(nodes.map((ledger, i) => ledger.exchange(report(names[i] as string, []))));

    // when: each records 30 reports, numbered, all at once
    const got = names.map(() => [] as [string, number][]);
    await Promise.all(nodes.map(async (ledger, i) => {
      for (let n = 1; n <= 30; n++) for (const r of await ledger.exchange(report(names[i] as string, [n]))) got[i]?.push([r.node, r.spends[0]?.requests ?? 0]);
    }));
    for (const [i, ledger] of nodes.entries()) for (const r of await ledger.exchange(report(names[i] as string, []))) got[i]?.push([r.node, r.spends[0]?.requests ?? 0]);

    // then: each node got the other two's 30 reports (and their empty first and last), each node's in order
    for (const [i, reports] of got.entries()) {
      for (const other of names.filter((_, j) => j !== i)) {
        const numbers = reports.filter(([node]) => node === other).map(([, n]) => n).filter((n) => n > 0);
        assert.deepEqual(numbers, Array.from({ length: 30 }, (_, k) => k + 1), `${names[i]} from ${other}`);
      }
    }
  });
});
