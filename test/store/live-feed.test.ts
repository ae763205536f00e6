import { join } from 'node:path';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import { tempDir } from '../support/server.js';
import { describeLiveFeed } from './contracts/live-feed.contract.js';

// The embedded store's feed, on a file and in memory (the factory runs inside each test).
describeLiveFeed('sqlite file', async () => openSqliteStore(join(tempDir(), 'cache.db')));
describeLiveFeed('sqlite memory', async () => openSqliteStore(''));
