import { join } from 'node:path';
import { SqliteMonitorStore } from '../../src/store/sqlite/monitor-store.js';
import { tempDir } from '../support/server.js';
import { describeMonitorStore } from './contracts/monitor-store.contract.js';

describeMonitorStore('sqlite', async (location = join(tempDir(), 'monitor.db')) => {
  const instance = new SqliteMonitorStore(location);
  return { instance, location, close: () => instance.close() };
});
