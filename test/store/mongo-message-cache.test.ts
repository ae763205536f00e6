import assert from 'node:assert/strict';
import { describe } from 'node:test';
import type { MessageCache } from '../../src/store/message-cache.js';
import { MongoMessageCache } from '../../src/store/mongo/message-cache.js';
import { MessageLog } from '../../src/store/mongo/message-log.js';
import { ferretDbSkip } from '../support/ferretdb.js';
import { connect, ferretDb, RecordedLog } from '../support/mongo-nodes.js';
import type { Open } from './contracts/instances.js';
import { describeMessageCache } from './contracts/message-cache.contract.js';

/**
 * A node's cache on its own client, without the live feed (every feed's cursor polls the
 * server, which would slow the whole suite); a location is the database.
 */
const mongo: Open<MessageCache> = async (location) => {
  const database = location ?? (await ferretDb()).databaseName('cache');
  const db = (await connect()).db(database);
  const log = new RecordedLog();
  const cache = await MongoMessageCache.open(db, await MessageLog.open(db, 64 << 20), (err) => log.error({ err }, 'clean-up'));
  return { instance: cache, location: database, close: async () => assert.deepEqual(log.errors, []) };
};

describe('MongoDB message cache (FerretDB)', { skip: ferretDbSkip() }, () => {
  describeMessageCache('mongodb', mongo, { shared: true });
});
