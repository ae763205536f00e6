import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { promisify } from 'node:util';
import bcrypt from 'bcryptjs';
import WebSocket from 'ws';
import { staleReadBoundMs } from '../../src/store/polled-read-cache.js';
import { SqliteAuthStore } from '../../src/store/sqlite/auth-store.js';
import { freshDatabase, postgresSkip } from '../support/postgres.js';
import { spawnServer, startTestServer, tempDir } from '../support/server.js';
import { pastStaleReadBound } from '../support/stale-reads.js';

/**
 * auth-access-cache (ntfy 2.24) against a real server: access decided from the table of
 * every entry, which a change made by `tocsin access` in another process reaches within
 * the auth-file's staleness bound.
 */

const bin = new URL('../../../bin/tocsin.js', import.meta.url).pathname;
const run = promisify(execFile);

describe('auth-access-cache', () => {
  it('an entry granted and then revoked by the CLI (another process) is honoured, then refused within the store\'s bound', async () => {
    const authFile = join(tempDir(), 'auth.db');
    const s = await startTestServer({
      'auth-file': authFile,
      'auth-default-access': 'deny-all',
      'auth-access-cache': true,
      'auth-users': [`phil:${bcrypt.hashSync('secret', 4)}:user`],
    });
    after(() => s.server.close());
    const headers = { Authorization: `Basic ${Buffer.from('phil:secret').toString('base64')}` };
    const publish = async (topic: string): Promise<number> => (await fetch(`${s.url}/${topic}`, { method: 'POST', body: 'x', headers })).status;
    const access = (...args: string[]): Promise<unknown> => run(process.execPath, [bin, 'access', '--auth-file', authFile, ...args]);
    // A reader of the same file, for the bound (the CLI's writes are committed when it exits).
    const bound = new SqliteAuthStore(authFile);
    after(() => bound.close());

    assert.equal(await publish('alerts-db'), 403);
    await access('phil', 'alerts*', 'rw');
    await pastStaleReadBound(bound);
    assert.equal(await publish('alerts-db'), 200);
    // Many names no entry covers: each answered from the table, none displaces it.
    for (let i = 0; i < 50; i++) assert.equal(await publish(`other${i}`), 403);
    assert.equal(await publish('alerts-web'), 200);

    await access('--reset', 'phil', 'alerts*');
    await pastStaleReadBound(bound);
    assert.equal(await publish('alerts-db'), 403);
    const upgrade = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`${s.url.replace('http', 'ws')}/alerts-db/ws`, { headers });
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('open', () => {
        ws.close();
        resolve(101);
      });
    });
    assert.equal(upgrade, 403, 'subscribing is refused too');
  });

  it('two nodes on PostgreSQL: an entry revoked through one node\'s admin API is refused by the other once the bound (1 s) has passed', { skip: postgresSkip() }, async () => {
    const hash = bcrypt.hashSync('secret', 4);
    const url = await freshDatabase('accesscache');
    const args = ['--database-url', url, '--auth-default-access', 'deny-all', '--auth-access-cache', 'true', '--auth-users', `admin:${hash}:admin,phil:${hash}:user`];
    const [a, b] = [await spawnServer(args), await spawnServer(args)];
    after(() => {
      a.child.kill();
      b.child.kill();
    });
    const as = (user: string): Record<string, string> => ({ Authorization: `Basic ${Buffer.from(`${user}:secret`).toString('base64')}` });
    const publish = async (url: string): Promise<number> => (await fetch(`${url}/alerts`, { method: 'POST', body: 'x', headers: as('phil') })).status;
    const entry = (method: string, body: object): Promise<Response> => fetch(`${a.url}/v1/users/access`, { method, body: JSON.stringify(body), headers: as('admin') });
    const pastBound = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, staleReadBoundMs));

    assert.equal(await publish(b.url), 403);
    assert.equal((await entry('PUT', { username: 'phil', topic: 'alerts', permission: 'rw' })).status, 200);
    await pastBound();
    assert.equal(await publish(b.url), 200, 'granted on A, honoured by B');
    assert.equal((await entry('DELETE', { username: 'phil', topic: 'alerts' })).status, 200);
    assert.equal(await publish(a.url), 403, 'the node that made the change at once');
    await pastBound();
    assert.equal(await publish(b.url), 403, 'the other once the bound has passed');
  });
});
