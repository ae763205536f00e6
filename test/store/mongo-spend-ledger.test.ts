import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { MongoClient } from 'mongodb';
import type { SpendReport } from '../../src/store/spend-ledger.js';
import { MongoSpendLedger } from '../../src/store/mongo/spend-ledger.js';
import { ferretDbSkip, startFerretDb, type FerretDb } from '../support/ferretdb.js';

let ferret: Promise<FerretDb> | undefined;
const clients: MongoClient[] = [];
after(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await (await ferret)?.stop();
});

/** Two ledgers (two nodes, each on its own client) on one fresh database, on a shared clock. */
async function pair(clock: { now: number }): Promise<{ a: MongoSpendLedger; b: MongoSpendLedger; count: () => Promise<number> }> {
  const server = await (ferret ??= startFerretDb());
  const name = server.databaseName('ledger');
  const open = async (): Promise<{ ledger: MongoSpendLedger; client: MongoClient }> => {
    const client = await MongoClient.connect(server.url);
    clients.push(client);
    return { ledger: await MongoSpendLedger.open(client.db(name), () => clock.now), client };
  };
  const [a, b] = [await open(), await open()];
  return { a: a.ledger, b: b.ledger, count: () => a.client.db(name).collection('spend_reports').countDocuments() };
}

const report = (node: string, requests: number[], full = false): SpendReport => ({
  node,
  full,
  spends: requests.map((r, i) => ({ key: `10.0.0.${i}`, requests: r, messages: 0, emails: 0, bytes: 0 })),
  holds: [{ key: '10.0.0.0', subscriptions: requests.length }],
});

describe('spend ledger on MongoDB (FerretDB)', { skip: ferretDbSkip() }, () => {
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

  it('splits a large report into documents the reader applies in order, the first full with the holds', async () => {
    const clock = { now: 1_700_000_000_000 };
    const { a, b } = await pair(clock);
    await a.exchange(report('a', Array.from({ length: 12_001 }, (_, i) => i + 1), true));
    const parts = await b.exchange(report('b', []));
    assert.deepEqual(parts.map((p) => [p.full, p.spends.length, p.holds.length]), [[true, 5000, 1], [false, 5000, 0], [false, 2001, 0]]);
    assert.equal(parts.flatMap((p) => p.spends).reduce((sum, s) => sum + s.requests, 0), (12_001 * 12_002) / 2);
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
