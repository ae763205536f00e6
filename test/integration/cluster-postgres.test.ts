import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { freshDatabase, postgresSkip } from '../support/postgres.js';
import { serveUntilExit } from '../support/server.js';
import { describeCluster } from './cluster-cases.js';

/** Tocsin processes on one PostgreSQL database (Debian's server, started by the test). */
describeCluster('PostgreSQL', { freshDatabase, skip: postgresSkip(), poolMetrics: false });

describe('startup — database-url on PostgreSQL', { skip: postgresSkip() }, () => {
  it('database-shards above 1 stops the start, naming it: a PostgreSQL database has one log', async () => {
    const { code, stderr } = await serveUntilExit(['--database-url', await freshDatabase('shards'), '--database-shards', '4']);
    assert.deepEqual([code, stderr], [1, 'tocsin: database-shards: 4, but a PostgreSQL database keeps its messages in one log (leave it at 0 or 1)\n']);
  });

  it('a database that cannot be reached stops the start, naming the URL without its password', async () => {
    const { code, stderr } = await serveUntilExit(['--database-url', 'postgres://tocsin:secret@/tocsin?host=/nonexistent-tocsin-socket-dir&port=5432']);
    assert.equal(code, 1);
    assert.match(stderr, /^tocsin: database-url postgres:\/\/…@\/tocsin\?host=\/nonexistent-tocsin-socket-dir&port=5432: connect ENOENT /);
  });
});
