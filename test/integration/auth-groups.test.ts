import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import bcrypt from 'bcryptjs';
import { apiCall, basic, statusAndCode } from '../support/account-api.js';
import { serveUntilExit, spawnServer, tempDir, type ChildServer } from '../support/server.js';

/** `auth-groups` in server.yml (issue 38 item 3) on a real server and the real CLI: members get the group's grants, server.yml alone changes it. */

const bin = new URL('../../../bin/tocsin.js', import.meta.url).pathname;
const hash = bcrypt.hashSync('secret', 4);

/** `tocsin <args>` in its own process: its exit code and stderr lines. */
function tocsin(args: string[]): Promise<[number, string[]]> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], (err, _stdout, stderr) => resolve([err ? Number(err.code) : 0, stderr.trimEnd().split('\n')]));
  });
}

/** A server.yml with three users, and `extra` lines. */
function config(dir: string, extra: string[]): string {
  const yml = join(dir, 'server.yml');
  writeFileSync(yml, [
    `auth-file: ${join(dir, 'auth.db')}`,
    'auth-default-access: deny-all',
    `auth-users: ["root:${hash}:admin", "ben:${hash}:user", "phil:${hash}:user"]`,
    ...extra,
  ].join('\n'));
  return yml;
}

async function publish(server: ChildServer, user: string): Promise<[number, unknown]> {
  const res = await fetch(`${server.url}/deploys`, { method: 'POST', body: 'v1.2', headers: { Authorization: basic(user) } });
  const json = (await res.json()) as { code?: number; message?: string };
  return [res.status, res.status === 200 ? json.message : json.code];
}

describe('auth-groups', () => {
  it('a member publishes with the group\'s grant, a non-member gets 403; CLI and API cannot change it; a restart without it removes it', async () => {
    const dir = tempDir();
    const yml = config(dir, ['auth-groups: ["deployers:ben"]', 'auth-access: ["*deployers:deploys:wo"]']);
    const first = await spawnServer(['--config', yml]);
    assert.deepEqual(await publish(first, 'ben'), [200, 'v1.2']);
    assert.deepEqual(await publish(first, 'phil'), [403, 40301]);

    assert.deepEqual(await tocsin(['group', '--config', yml, 'list']), [0, ['group deployers (provisioned)', '- member ben']]);
    assert.deepEqual(await tocsin(['group', '--config', yml, 'member', 'deployers', 'remove', 'ben']), [1, ['cannot change or delete provisioned group member']]);
    assert.deepEqual(await tocsin(['group', '--config', yml, 'remove', 'deployers']), [1, ['cannot change or delete provisioned group']]);
    const admin = basic('root');
    assert.deepEqual(await statusAndCode(apiCall(first.url, 'DELETE', '/v1/groups/members', admin, { group: 'deployers', username: 'ben' })), [409, 40911]);
    assert.deepEqual(await statusAndCode(apiCall(first.url, 'DELETE', '/v1/groups', admin, { name: 'deployers' })), [409, 40911]);
    assert.deepEqual(await publish(first, 'ben'), [200, 'v1.2'], 'ben is still a member');

    first.child.kill('SIGTERM');
    await first.exited;
    config(dir, []);
    const second = await spawnServer(['--config', yml]);
    assert.deepEqual(await publish(second, 'ben'), [403, 40301]);
    assert.deepEqual(await tocsin(['group', '--config', yml, 'list']), [0, ['no groups']]);
  });

  it('a member the file does not provision stops the start, naming them', async () => {
    const dir = tempDir();
    const run = await serveUntilExit(['--config', config(dir, ['auth-groups: ["deployers:ben,ghost"]'])]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /user ghost is not a provisioned user, refusing to add them to group deployers/);
  });

  it('from flags, commas separate groups and members alike', async () => {
    const dir = tempDir();
    const server = await spawnServer(['--config', config(dir, []), '--auth-groups', 'deployers:phil,ben,qa:', '--auth-access', '*deployers:deploys:rw']);
    assert.deepEqual(await publish(server, 'ben'), [200, 'v1.2']);
    assert.deepEqual(await publish(server, 'phil'), [200, 'v1.2']);
    assert.deepEqual(await statusAndCode(apiCall(server.url, 'GET', '/v1/groups', basic('root'))), [200, {
      groups: [{ name: 'deployers', members: ['ben', 'phil'], grants: [{ topic: 'deploys', permission: 'read-write' }], provisioned: true }, { name: 'qa', members: [], provisioned: true }],
    }]);
  });
});
