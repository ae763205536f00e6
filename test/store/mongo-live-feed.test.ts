import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe } from 'node:test';
import { openDatabase } from '../../src/store/sqlite/database.js';
import { SqliteJobRepository } from '../../src/store/sqlite/job-repository.js';
import { sqliteJobBackend } from '../../src/store/sqlite/store.js';
import type { Store } from '../../src/store/store.js';
import { ferretDbSkip } from '../support/ferretdb.js';
import { messageNode } from '../support/mongo-nodes.js';
import { tempDir } from '../support/server.js';
import type { Open } from './contracts/instances.js';
import { describeLiveFeed } from './contracts/live-feed.contract.js';

/**
 * A node's cache and feed on MongoDB; its jobs on SQLite (the suite is about the feed, and
 * the MongoDB job repository is built apart). A location is the database.
 */
const mongo: Open<Store> = async (location) => {
  const node = await messageNode(location);
  const jobsDb = openDatabase(join(tempDir(), 'jobs.db'), '');
  const store: Store = {
    cache: node.cache,
    feed: node.feed,
    jobs: sqliteJobBackend(new SqliteJobRepository(jobsDb)),
    close: async () => {
      await node.close();
      jobsDb.close();
      assert.deepEqual(node.log.errors, []);
    },
  };
  return { instance: store, location: node.database, close: () => store.close() };
};

describe('MongoDB live feed (FerretDB)', { skip: ferretDbSkip() }, () => {
  describeLiveFeed('mongodb', mongo, { uncachedAfterStored: true });
});
