import { after, describe } from 'node:test';
import { MongoClient } from 'mongodb';
import { MongoWebPushStore } from '../../src/store/mongo/webpush-store.js';
import { ferretDbSkip, startFerretDb, type FerretDb } from '../support/ferretdb.js';
import { describeWebPushStore } from './contracts/webpush-store.contract.js';

let ferret: Promise<FerretDb> | undefined;
const clients: MongoClient[] = [];
after(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await (await ferret)?.stop();
});

describe('MongoDB web push subscriptions (FerretDB)', { skip: ferretDbSkip() }, () => {
  describeWebPushStore('mongodb', async (location) => {
    const server = await (ferret ??= startFerretDb());
    const client = await MongoClient.connect(server.url, { maxPoolSize: 10 });
    clients.push(client);
    const name = location ?? server.databaseName('webpush');
    const instance = await MongoWebPushStore.open(client.db(name));
    return { instance, location: name, close: () => instance.close() };
  });
});
