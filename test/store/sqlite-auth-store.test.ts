import assert from 'node:assert/strict';
import { once } from 'node:events';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Worker } from 'node:worker_threads';
import { SqliteAuthStore } from '../../src/store/sqlite/auth-store.js';
import { tempDir } from '../support/server.js';
import { describeAuthStore } from './contracts/auth-store.contract.js';

describeAuthStore('sqlite', async (location = join(tempDir(), 'auth.db')) => {
  const store = new SqliteAuthStore(location);
  return { instance: store, location, close: () => store.close() };
});

describe('sqlite auth store — another process writing', () => {
  it('a change made while another connection holds the write lock waits for it, not failing at once', async () => {
    const file = join(tempDir(), 'auth.db');
    const store = new SqliteAuthStore(file);
    after(() => store.close());
    await store.addUser('ops', '$0', 'user');
    const holder = new Worker(new URL('../support/sqlite-lock-holder.js', import.meta.url), { workerData: { file, ms: 200 } });
    await once(holder, 'message');
    // Provisioning reads before it writes: a deferred transaction would meet the lock
    // with a read snapshot open, where SQLite skips the busy handler and fails at once.
    await store.provision({ users: [{ name: 'ops', hash: '$1', role: 'user' }], grants: [], tokens: [] });
    assert.equal((await store.user('ops'))?.hash, '$1');
    await once(holder, 'exit');
  });
});
