import assert from 'node:assert/strict';
import diagnostics from 'node:diagnostics_channel';
import type { Socket } from 'node:net';
import { describe, it } from 'node:test';
import { MongoClient, MongoNetworkError } from 'mongodb';
import { clientOptions } from '../../src/store/mongo/concerns.js';
import { ferretDbSkip } from '../support/ferretdb.js';
import { ferretDb } from '../support/mongo-nodes.js';
import { TcpProxy } from '../support/tcp-proxy.js';

describe('MongoDB connections the server closes (FerretDB)', { skip: ferretDbSkip() }, () => {
  it('a command written to a pooled connection whose socket the server just closed fails with the connection instead of waiting for good', async () => {
    // given: a client through a proxy, one pooled connection, its socket seen as it was made
    const server = await ferretDb();
    const proxy = await TcpProxy.start({ host: '127.0.0.1', port: Number(new URL(server.url).port) });
    const url = `mongodb://127.0.0.1:${proxy.port}/?directConnection=true`;
    const sockets: Socket[] = [];
    const made = (event: unknown): void => void sockets.push((event as { socket: Socket }).socket);
    diagnostics.subscribe('net.client.socket', made);
    const client = await MongoClient.connect(url, { ...clientOptions(url), maxPoolSize: 1 });
    try {
      const items = client.db(server.databaseName('closed')).collection<{ n: number }>('items');
      await items.insertOne({ n: 1 });
      diagnostics.unsubscribe('net.client.socket', made);
      // The client's sockets (not the proxy's to FerretDB): the monitor's first, the pool's last.
      const pooled = sockets.filter((socket) => socket.remotePort === proxy.port).at(-1) as Socket;

      // when: the proxy closes the pooled connection (the monitor's is spared), and an insert
      // goes out at the end of the turn in which the client read the close: Node has ended
      // and destroyed the socket, its 'close' (which tells the driver) comes in the turn's
      // close phase, after the insert was written
      let destroyedAtWrite = false;
      const inserted = new Promise<unknown>((resolve, reject) => {
        pooled.once('finish', () =>
          setImmediate(() => {
            destroyedAtWrite = pooled.destroyed;
            items.insertOne({ n: 2 }).then(resolve, reject);
          }),
        );
      });
      assert.equal(proxy.cut(1), 2);

      // then: the insert fails as the connection closes (on a replica set the driver would
      // retry it on a new connection), and the client goes on with a new one
      const outcome = await Promise.race([inserted.then(() => 'inserted', (err: unknown) => err), new Promise((resolve) => setTimeout(resolve, 10_000, 'still waiting after 10 s').unref())]);
      assert.ok(destroyedAtWrite, 'the socket was destroyed when the insert was written');
      assert.ok(outcome instanceof MongoNetworkError, String(outcome));
      await items.insertOne({ n: 3 });
      assert.deepEqual((await items.find({}, { projection: { _id: 0 } }).toArray()).map(({ n }) => n), [1, 3]);
    } finally {
      await client.close();
      await proxy.stop();
    }
  });
});
