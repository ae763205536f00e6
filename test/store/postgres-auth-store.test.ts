import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import pg from 'pg';
import { newToken } from '../../src/model/access.js';
import { PostgresAuthStore } from '../../src/store/postgres/auth/store.js';
import { readFailure } from '../../src/store/postgres/errors.js';
import { openPool } from '../../src/store/postgres/pool.js';
import { openSchema } from '../../src/store/postgres/schema.js';
import { StoreUnavailableError } from '../../src/store/write-error.js';
import { freshDatabase, postgresSkip } from '../support/postgres.js';
import { describeAuthStore } from './contracts/auth-store.contract.js';

/** A node's access control on the database at `url` (a fresh one without), on a pool of its own. */
async function node(url?: string): Promise<{ store: PostgresAuthStore; url: string }> {
  const at = url ?? (await freshDatabase('auth'));
  const pool = openPool(at);
  await openSchema(pool);
  return { store: new PostgresAuthStore(pool, pool), url: at };
}

describe('PostgreSQL auth store', { skip: postgresSkip() }, () => {
  describeAuthStore('postgresql', async (location) => {
    const { store, url } = await node(location);
    return { instance: store, location: url, close: () => store.close() };
  });

  it('a password change and a token revocation on node A are seen by node B within a second', async () => {
    const [a, b] = await (async () => {
      const first = await node();
      return [first, await node(first.url)];
    })();
    after(() => Promise.all([a.store.close(), b.store.close()]));
    await a.store.addUser('phil', '$0', 'user');
    await a.store.addToken('phil', { token: 'tk_phil', label: '', expires: 0, lastAccess: 0, lastOrigin: '' });
    assert.equal((await b.store.userByToken('tk_phil'))?.name, 'phil');
    await a.store.changePassword('phil', '$1');
    await a.store.removeToken('phil', 'tk_phil');
    const started = performance.now();
    while ((await b.store.user('phil'))?.hash !== '$1' || (await b.store.userByToken('tk_phil')) !== undefined) {
      assert.ok(performance.now() - started < b.store.staleReadBoundMs + 250, 'seen within the bound');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  });

  it('a database of schema version 1 gains the e-mail and magic-link tables (version 2), token scopes (version 3), the dropped-message records (version 4), receipts (version 5) and groups (version 6) at its next open', async () => {
    const { store, url } = await node();
    await store.close();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    after(() => client.end());
    await client.query('DROP TABLE emails; DROP TABLE magic_links; ALTER TABLE tokens DROP COLUMN scopes; DROP TABLE topic_drops; DROP TABLE receipts; DROP TABLE group_members; DROP TABLE groups; UPDATE schema_version SET version = 1');
    const reopened = await node(url);
    after(() => reopened.store.close());
    assert.equal((await client.query<{ version: number }>('SELECT version FROM schema_version')).rows[0]?.version, 6);
    assert.equal((await client.query('SELECT 1 FROM topic_drops')).rowCount, 0, 'the dropped-message records are there, empty');
    assert.equal((await client.query<{ n: number }>('SELECT count(*)::int AS n FROM receipts')).rows[0]?.n, 0);
    const scoped = { token: newToken(), label: '', expires: 0, lastAccess: 0, lastOrigin: '', scopes: [{ topic: 'deploys', permission: { read: false, write: true } }] };
    await reopened.store.addUser('phil', '$0', 'user');
    await reopened.store.addToken('phil', scoped);
    assert.deepEqual((await reopened.store.userByToken(scoped.token))?.scopes, scoped.scopes);
    await reopened.store.addMagicLink({ selector: 'sel1', hash: 'ab', kind: 'email-verify', username: 'phil', email: 'phil@example.com', expires: 2 ** 40 });
    assert.equal(await reopened.store.verifyEmail('sel1'), true);
    assert.deepEqual(await reopened.store.emails('phil'), [{ address: 'phil@example.com', primary: true, pending: false }]);
    await reopened.store.addGroup('ops');
    await reopened.store.addMember('ops', 'phil');
    assert.deepEqual(await reopened.store.groups(), [{ name: 'ops', members: ['phil'], provisioned: false }]);
  });

  it('a server that does not answer is StoreUnavailableError (503); an SQL error stays itself', async () => {
    const gone = new pg.Client({ connectionString: 'postgres://postgres@/none?host=/nonexistent-tocsin-socket-dir&port=5432' });
    const refused = await gone.connect().then(() => undefined, (err: unknown) => err);
    assert.ok(readFailure(refused) instanceof StoreUnavailableError, String(refused));
    const { store, url } = await node();
    after(() => store.close());
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const syntax = await client.query('SELEC 1').then(() => undefined, (err: unknown) => err);
    await client.end();
    assert.equal(readFailure(syntax), syntax);
  });
});
