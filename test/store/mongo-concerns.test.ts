import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CommandStartedEvent, Document } from 'mongodb';
import { StoreUnavailableError, StoreWriteError } from '../../src/store/write-error.js';
import { MongoAuthStore } from '../../src/store/mongo/auth/store.js';
import { clientOptions, timeoutDefaults } from '../../src/store/mongo/concerns.js';
import { MessageLog } from '../../src/store/mongo/message-log.js';
import { defaultShards } from '../../src/store/topic-logs.js';
import { openMongoMessageStore } from '../../src/store/mongo/message-store.js';
import { MongoSpendLedger } from '../../src/store/mongo/spend-ledger.js';
import { readFailure, writeFailure } from '../../src/store/mongo/write-error.js';
import { bulkWriteConcernTimeout, writeConcernTimeout } from '../support/driver-errors.js';
import { ferretDbSkip } from '../support/ferretdb.js';
import { connect, ferretDb, RecordedLog } from '../support/mongo-nodes.js';
import { entry, message, now } from './contracts/cache-messages.js';

const majority = { w: 'majority', j: true, wtimeout: timeoutDefaults.wtimeoutMS };
/** What a URL may ask for that is weaker than what Tocsin needs. */
const weak = 'w=1&journal=false&readConcernLevel=local&readPreference=secondaryPreferred';
const writes = new Set(['insert', 'update', 'delete', 'findAndModify', 'createIndexes']);
const reads = new Set(['find', 'aggregate', 'count', 'distinct']);

describe('MongoDB write and read concerns', () => {
  it('concerns — a URL without concerns gets majority, journaled, and the default timeouts', () => {
    const options = clientOptions('mongodb://db.example/tocsin');
    assert.deepEqual({ ...options.writeConcern }, { w: 'majority', wtimeout: 5000, wtimeoutMS: 5000, j: true, journal: true });
    assert.deepEqual({ ...options.readConcern }, { level: 'majority' });
    assert.equal(options.retryWrites, true);
    assert.equal(options.socketTimeoutMS, 10_000);
    assert.equal(options.waitQueueTimeoutMS, 5_000);
  });

  it('concerns — weaker URL concerns are raised, retryWrites=false is turned back on', () => {
    const options = clientOptions(`mongodb://db.example/tocsin?${weak}&retryWrites=false`);
    assert.equal(options.writeConcern.w, 'majority');
    assert.equal(options.writeConcern.journal, true);
    assert.equal(options.readConcern.level, 'majority');
    assert.equal(options.retryWrites, true);
  });

  it('concerns — stronger URL concerns and the URL timeouts are kept', () => {
    const options = clientOptions('mongodb://db.example/tocsin?w=3&wtimeoutMS=800&readConcernLevel=linearizable&socketTimeoutMS=1500&waitQueueTimeoutMS=700');
    assert.deepEqual({ w: options.writeConcern.w, wtimeoutMS: options.writeConcern.wtimeoutMS, journal: options.writeConcern.journal }, { w: 3, wtimeoutMS: 800, journal: true });
    assert.equal(options.readConcern.level, 'linearizable');
    assert.equal(options.socketTimeoutMS, 1500);
    assert.equal(options.waitQueueTimeoutMS, 700);
  });

  it('concerns — a write MongoDB did not acknowledge in time is a store not writable (503), not a refusal (driver-built errors: FerretDB has no write concern to fail)', () => {
    const single = writeFailure(writeConcernTimeout());
    assert.ok(single instanceof StoreWriteError && !single.full);
    const bulk = writeFailure(bulkWriteConcernTimeout(2));
    assert.ok(bulk instanceof StoreWriteError && !bulk.full);
  });

  it('concerns — a command written to a socket the server closed (the socket\'s own EPIPE, as mongodb 6.22 throws it) is a store not writable; another error stays as it is', () => {
    const epipe = Object.assign(new Error('This socket has been ended by the other party'), { code: 'EPIPE' });
    const gone = writeFailure(epipe);
    assert.ok(gone instanceof StoreWriteError && !gone.full && gone.cause === epipe);
    const bug = Object.assign(new Error('bad'), { code: 'ERR_INVALID_ARG_TYPE' });
    assert.equal(writeFailure(bug), bug);
    assert.ok(readFailure(epipe) instanceof StoreUnavailableError);
  });
});

describe('MongoDB write and read concerns on the wire (FerretDB)', { skip: ferretDbSkip() }, () => {
  it('concerns — every write of the stores goes out majority and journaled, every position read at majority from the primary, whatever the URL asks', async () => {
    // given: a client on a URL asking for weak concerns, its commands recorded
    const server = await ferretDb();
    const url = `${server.url}&${weak}`;
    const commands: CommandStartedEvent[] = [];
    const client = await connect(url, { monitorCommands: true });
    client.on('commandStarted', (e) => commands.push(e));
    const database = server.databaseName('concerns');
    const db = client.db(database);
    const node = await openMongoMessageStore(db, { capBytes: 64 << 20, shards: 0, log: new RecordedLog(), tail: { pollMs: 1 } });

    // when: the stores write and read
    const log = await MessageLog.open(db, (64 << 20) / defaultShards);
    const stored = message('concerns');
    const scheduled = message('concerns', { time: now + 60 });
    await node.cache.add([entry(stored), entry(scheduled, false)]);
    await node.cache.replay({ topic: 'concerns', since: { kind: 'all' }, scheduled: true, maxBytes: 1 << 20 });
    await node.cache.replay({ topic: 'concerns', since: { kind: 'id', id: stored.id }, scheduled: false, maxBytes: 1 << 20 });
    await node.cache.release([scheduled.id]);
    const auth = await MongoAuthStore.open(db);
    await auth.addUser('phil', '$hash', 'user');
    const ledger = await MongoSpendLedger.open(db);
    await ledger.exchange({ node: 'a', full: false, spends: [], holds: [] });
    await node.close();

    // then
    assert.equal(log.batches.readPreference?.mode, 'primary');
    const written = commands.filter((c) => writes.has(c.commandName));
    assert.ok(written.length >= 6, `${written.length} writes`);
    for (const c of written) assert.deepEqual(c.command.writeConcern, majority, `${c.commandName} ${collectionOf(c)}`);
    const positions = commands.filter((c) => reads.has(c.commandName) && /^(messages(_\d+)?|scheduled_messages)$/.test(collectionOf(c)));
    assert.ok(positions.some((c) => typeof (c.command.filter as { _id?: unknown } | undefined)?._id === 'number'), 'the tail');
    assert.ok(positions.some((c) => c.command.limit === 1 && Object.keys(c.command.filter as object).length === 0), 'the chain head');
    for (const c of positions) assert.deepEqual({ ...c.command.readConcern }, { level: 'majority' }, `${c.commandName} ${JSON.stringify(c.command.filter)}`);
  });
});

function collectionOf(c: CommandStartedEvent): string {
  const name: unknown = (c.command as Document)[c.commandName];
  return typeof name === 'string' ? name : '';
}

