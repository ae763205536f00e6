import { join } from 'node:path';
import { SqliteAuthStore } from '../../src/store/sqlite/auth-store.js';
import { tempDir } from '../support/server.js';
import { describeAuthStore } from './contracts/auth-store.contract.js';

describeAuthStore('sqlite', async (location = join(tempDir(), 'auth.db')) => {
  const store = new SqliteAuthStore(location);
  return { instance: store, location, close: () => store.close() };
});
