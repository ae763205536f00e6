import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { MongoClient, ObjectId } from 'mongodb';
import { GridFsAttachments, orphanAgeMs } from '../../src/store/mongo/gridfs-attachments.js';
import { ferretDbSkip, startFerretDb, type FerretDb } from '../support/ferretdb.js';
import { describeAttachmentStore } from './contracts/attachment-store.contract.js';

let ferret: Promise<FerretDb> | undefined;
const clients: MongoClient[] = [];
after(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await (await ferret)?.stop();
});

/** A client of the file's one FerretDB: each stands for a node. */
async function connect(): Promise<{ client: MongoClient; ferret: FerretDb }> {
  const server = await (ferret ??= startFerretDb());
  const client = await MongoClient.connect(server.url);
  clients.push(client);
  return { client, ferret: server };
}

describe('MongoDB attachments (GridFS on FerretDB)', { skip: ferretDbSkip() }, () => {
  describeAttachmentStore('gridfs', async (location) => {
    const { client, ferret: server } = await connect();
    const name = location ?? server.databaseName('attachments');
    const instance = await GridFsAttachments.open(client.db(name));
    return { instance, location: name, close: () => instance.close() };
  });

  it('removes the chunks of an upload that died before its file document, once an hour old, and nothing else', async () => {
    const { client, ferret: server } = await connect();
    const db = client.db(server.databaseName('orphans'));
    const store = await GridFsAttachments.open(db);
    after(() => store.close());
    const upload = await store.create('kept', 'o', () => true);
    upload.write(Buffer.from('kept'));
    await upload.commit({ type: 'text/plain', name: 'k.txt', expires: 0 });
    const old = ObjectId.createFromTime(Math.floor((Date.now() - orphanAgeMs) / 1000) - 60);
    await db.collection('attachments.chunks').insertMany([
      { _id: old, files_id: 'crashed', n: 0, data: Buffer.from('half') },
      { _id: new ObjectId(), files_id: 'uploading', n: 0, data: Buffer.from('live') },
    ]);
    assert.deepEqual(await store.expire(Math.floor(Date.now() / 1000)), []);
    const left = await db.collection('attachments.chunks').distinct('files_id');
    assert.deepEqual(left.sort(), ['kept', 'uploading']);
  });
});
