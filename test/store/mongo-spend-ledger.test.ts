import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { MongoClient } from 'mongodb';
import { MongoSpendLedger } from '../../src/store/mongo/spend-ledger.js';
import { ferretDbSkip, startFerretDb, type FerretDb } from '../support/ferretdb.js';
import { describeSpendLedger, report } from './contracts/spend-ledger.contract.js';

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

describe('spend ledger on MongoDB (FerretDB)', { skip: ferretDbSkip() }, () => {
  describeSpendLedger('mongodb', pair);

  it('splits a large report into documents the reader applies in order, the first full with the holds', async () => {
    const clock = { now: 1_700_000_000_000 };
    const { a, b } = await pair(clock);
    await a.exchange(report('a', Array.from({ length: 12_001 }, (_, i) => i + 1), true));
    const parts = await b.exchange(report('b', []));
    assert.deepEqual(parts.map((p) => [p.full, p.spends.length, p.holds.length]), [[true, 5000, 1], [false, 5000, 0], [false, 2001, 0]]);
    assert.equal(parts.flatMap((p) => p.spends).reduce((sum, s) => sum + s.requests, 0), (12_001 * 12_002) / 2);
  });
});
