import { join } from 'node:path';
import { after, describe } from 'node:test';
import { MongoClient } from 'mongodb';
import { openDatabase } from '../../src/store/sqlite/database.js';
import { SqliteReceiptStore } from '../../src/store/sqlite/receipt-store.js';
import { openPool } from '../../src/store/postgres/pool.js';
import { openSchema } from '../../src/store/postgres/schema.js';
import { PostgresReceiptStore } from '../../src/store/postgres/receipt-store.js';
import { MongoReceiptStore } from '../../src/store/mongo/receipt-store.js';
import { ferretDbSkip, startFerretDb, type FerretDb } from '../support/ferretdb.js';
import { freshDatabase, postgresSkip } from '../support/postgres.js';
import { tempDir } from '../support/server.js';
import { describeReceiptStore } from './contracts/receipt-store.contract.js';

/** The receipt store's contract on each backend: SQLite (a file, shared as two processes would), PostgreSQL and MongoDB (FerretDB). */

describeReceiptStore('sqlite', async (location = join(tempDir(), 'cache.db')) => {
  const db = openDatabase(location, '');
  return { instance: new SqliteReceiptStore(db), location, close: async () => void db.close() };
});

describe('PostgreSQL receipts', { skip: postgresSkip() }, () => {
  describeReceiptStore('postgresql', async (location) => {
    const url = location ?? (await freshDatabase('receipts'));
    const pool = openPool(url);
    await openSchema(pool);
    return { instance: new PostgresReceiptStore(pool), location: url, close: () => pool.end() };
  });
});

let ferret: Promise<FerretDb> | undefined;
const clients: MongoClient[] = [];
after(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await (await ferret)?.stop();
});

describe('MongoDB receipts (FerretDB)', { skip: ferretDbSkip() }, () => {
  describeReceiptStore('mongodb', async (location) => {
    const server = await (ferret ??= startFerretDb());
    const client = await MongoClient.connect(server.url, { maxPoolSize: 10 });
    clients.push(client);
    const name = location ?? server.databaseName('receipts');
    return { instance: await MongoReceiptStore.open(client.db(name)), location: name, close: async () => undefined };
  });
});
