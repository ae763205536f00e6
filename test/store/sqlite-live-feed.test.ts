import { join } from 'node:path';
import type { Store } from '../../src/store/store.js';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import { tempDir } from '../support/server.js';
import type { Open } from './contracts/instances.js';
import { describeLiveFeed } from './contracts/live-feed.contract.js';

/** The embedded store; a location is the file, '' memory. */
const sqlite: Open<Store> = async (location = join(tempDir(), 'cache.db')) => {
  const store = openSqliteStore(location);
  return { instance: store, location, close: () => store.close() };
};

describeLiveFeed('sqlite file', sqlite);
describeLiveFeed('sqlite memory', () => sqlite(''));
