import type { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import { MongoNetworkError } from 'mongodb';

/** What this touches of the driver's Connection (internal: not in mongodb's types). */
interface DriverConnection extends EventEmitter {
  readonly id: number | '<monitor>';
  readonly address: string;
  error: Error | null;
  writeCommand(command: unknown, options: unknown): Promise<void>;
}

/**
 * A command written to a connection the server has just closed would wait for good
 * (mongodb 6.22, as 7.5): when the server's FIN arrives, Node ends the client's socket and
 * destroys it, but emits its 'close', which is how the driver learns that the connection
 * is gone, only in the turn's close phase. Until then (the rest of the poll phase, and the
 * check phase, where the group commit starts a commit at a turn's end) the pool still
 * hands the connection out, `socket.write` answers false without an error, and the driver
 * waits for a 'drain' that never comes, with no socket timeout left to end it. The commit
 * never settled, and every later publish of the node queued behind it (cluster-cut.test.ts
 * stalled so). Here a write ends, as a network error, when its connection closes, as a
 * command cut while awaiting its answer does: retried on a replica set (retryable writes),
 * else failed (a commit: its publishes answer 503).
 */
const { Connection } = createRequire(import.meta.url)('mongodb/lib/cmap/connection.js') as { Connection?: { prototype: DriverConnection } };
const writeCommand = Connection?.prototype.writeCommand;
if (!Connection || typeof writeCommand !== 'function') throw new Error('mongodb: Connection.prototype.writeCommand is gone; see src/store/mongo/closed-connection.ts');

Connection.prototype.writeCommand = function (this: DriverConnection, command: unknown, options: unknown): Promise<void> {
  return new Promise((resolve, reject) => {
    const closed = (): void => reject(this.error ?? new MongoNetworkError(`connection ${this.id} to ${this.address} closed`));
    this.once('close', closed);
    writeCommand
      .call(this, command, options)
      .then(resolve, reject)
      .finally(() => this.off('close', closed));
  });
};
