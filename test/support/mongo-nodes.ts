import { after } from 'node:test';
import { MongoClient, type Db, type MongoClientOptions } from 'mongodb';
import { openMongoMessageStore, type MessageStoreOptions, type MongoMessageStore } from '../../src/store/mongo/message-store.js';
import { startFerretDb, type FerretDb } from './ferretdb.js';
import { TcpProxy } from './tcp-proxy.js';

let ferret: Promise<FerretDb> | undefined;
const clients: MongoClient[] = [];
after(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await (await ferret)?.stop();
});

/** The test process's one FerretDB (see ferretdb.ts), started on first use and stopped when the file ends. */
export function ferretDb(): Promise<FerretDb> {
  return (ferret ??= startFerretDb());
}

/** A client of the FerretDB on `url` (its own by default): each stands for a node. */
export async function connect(url?: string, options?: MongoClientOptions): Promise<MongoClient> {
  const client = await MongoClient.connect(url ?? (await ferretDb()).url, options);
  clients.push(client);
  return client;
}

/** Errors and warnings the stores report without failing a call: a test asserts there were none (or the ones it caused). */
export class RecordedLog {
  readonly errors: { details: object; message: string }[] = [];
  readonly warnings: { details: object; message: string }[] = [];
  error(details: object, message: string): void {
    this.errors.push({ details, message });
  }
  warn(details: object, message: string): void {
    this.warnings.push({ details, message });
  }
}

export interface MessageNode extends MongoMessageStore {
  database: string;
  log: RecordedLog;
  client: MongoClient;
}

/** Logs of the stores the tests open: several, so that every path between logs is taken. */
export const testShards = 4;

/** A node's message store on `database` (a fresh one when absent), on a client of its own. */
export async function messageNode(database?: string, options: Partial<MessageStoreOptions> & { url?: string } = {}): Promise<MessageNode> {
  // Command events only reach a test that listens (`client.on('commandStarted')`).
  const client = await connect(options.url, { monitorCommands: true });
  const name = database ?? (await ferretDb()).databaseName('log');
  const log = new RecordedLog();
  const store = await openMongoMessageStore(client.db(name), { capBytes: 64 << 20, log, ...options, shards: options.shards ?? testShards });
  return { ...store, database: name, log, client };
}

/**
 * Drops the oldest batches of the capped log on `db` the way FerretDB's own clean-up does
 * (by `compact`, which runs it now rather than within its minute), until no batch at or
 * below `position` is left. The log must be over its cap (a tiny cache-size-limit) and hold
 * 10 batches or more: each clean-up drops a tenth of them.
 */
export async function rollOut(db: Db, position: number): Promise<void> {
  const batches = db.collection<{ _id: number }>('messages');
  for (let round = 0; round < 100; round++) {
    const [oldest] = await batches.find({}, { projection: { _id: 1 } }).limit(1).toArray();
    if (!oldest || oldest._id > position) return;
    await db.command({ compact: 'messages', force: true });
  }
  throw new Error(`the capped log still holds position ${position} after 100 clean-ups`);
}

/**
 * Database `name` of `server`: its URL, and the URL of the same through a TcpProxy of its
 * own (for a node whose traffic a test cuts, delays or freezes), stopped after the file.
 */
export async function proxiedDatabase(server: FerretDb, name: string): Promise<{ url: string; proxiedUrl: string; proxy: TcpProxy }> {
  const database = server.databaseName(name);
  const port = new URL(server.url).port;
  const url = server.url.replace('/?', `/${database}?`);
  const proxy = await TcpProxy.start({ host: '127.0.0.1', port: Number(port) });
  after(() => proxy.stop());
  return { url, proxiedUrl: url.replace(`:${port}/`, `:${proxy.port}/`), proxy };
}
