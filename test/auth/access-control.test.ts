import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import bcrypt from 'bcryptjs';
import { AccessControl } from '../../src/auth/access-control.js';
import { provision } from '../../src/auth/provision.js';
import { parsePermission, permissionName, type Permission } from '../../src/model/access.js';
import { SqliteAuthStore } from '../../src/store/sqlite/auth-store.js';
import { code } from '../support/errors.js';
import { tempDir } from '../support/server.js';
import { pastStaleReadBound } from '../support/stale-reads.js';

const deny: Permission = { read: false, write: false };
const limits = { authFailures: { burst: 100, replenishMs: 1000 }, accountActions: { burst: 3, replenishMs: 1000 } };
const hash = (password: string): string => bcrypt.hashSync(password, 4);

function store(): SqliteAuthStore {
  const s = new SqliteAuthStore(join(tempDir(), 'auth.db'));
  after(() => s.close());
  return s;
}

describe('permissions', () => {
  it('parse ntfy\'s words and aliases, case-insensitively', () => {
    const cases: [string, string][] = [
      ['read-write', 'read-write'], ['RW', 'read-write'], ['read-only', 'read-only'], ['read', 'read-only'], ['ro', 'read-only'],
      ['write-only', 'write-only'], ['write', 'write-only'], ['wo', 'write-only'], ['deny-all', 'deny-all'], ['deny', 'deny-all'], ['none', 'deny-all'],
    ];
    for (const [word, name] of cases) assert.equal(permissionName(parsePermission(word) as Permission), name, word);
    for (const unknown of ['everything', '__proto__', 'constructor', 'toString']) assert.equal(parsePermission(unknown), undefined, unknown);
  });
});

describe('access control', () => {
  for (const accessCache of [false, true]) it(`user entries win over everyone's, the longest pattern wins, write before read on ties; else the default${accessCache ? ' (auth-access-cache)' : ''}`, async () => {
    const s = store();
    await s.addUser('phil', hash('pw'), 'user');
    await s.allowAccess('phil', 'alerts*', parsePermission('ro') as Permission);
    await s.allowAccess('phil', 'alerts-db', parsePermission('rw') as Permission);
    await s.allowAccess('*', 'alerts-db', deny);
    await s.allowAccess('*', 'public*', parsePermission('ro') as Permission);
    await s.allowAccess('*', 'up_*', parsePermission('wo') as Permission);
    const ac = new AccessControl(s, deny, limits, accessCache);
    const phil = await s.user('phil');
    assert.equal(await code(ac.authorize(phil, ['alerts-db'], 'write')), undefined);
    assert.equal(await code(ac.authorize(phil, ['alerts-web'], 'read')), undefined);
    assert.equal(await code(ac.authorize(phil, ['alerts-web'], 'write')), 40301);
    assert.equal(await code(ac.authorize(phil, ['ALERTS-web'], 'read')), 40301, 'patterns match case-sensitively, as ntfy 2.24');
    assert.equal(await code(ac.authorize(undefined, ['alerts-db'], 'read')), 40301);
    assert.equal(await code(ac.authorize(undefined, ['public-news'], 'read')), undefined);
    assert.equal(await code(ac.authorize(undefined, ['public-news'], 'write')), 40301);
    assert.equal(await code(ac.authorize(phil, ['public-news'], 'read')), undefined, 'everyone entries apply to users too');
    assert.equal(await code(ac.authorize(undefined, ['up_x'], 'write')), undefined);
    assert.equal(await code(ac.authorize(undefined, ['upAx'], 'write')), 40301, '_ is literal, not a LIKE wildcard');
    assert.equal(await code(ac.authorize(undefined, ['elsewhere'], 'read')), 40301, 'default deny-all');
    assert.equal(await code(ac.authorize(phil, ['alerts-db', 'elsewhere'], 'read')), 40301, 'every topic must pass');
    await s.addUser('root', hash('pw'), 'admin');
    assert.equal(await code(ac.authorize(await s.user('root'), ['elsewhere', 'alerts-db'], 'write')), undefined, 'admins may do everything');
    const open = new AccessControl(s, parsePermission('read-write') as Permission, limits, accessCache);
    assert.equal(await code(open.authorize(undefined, ['elsewhere'], 'write')), undefined);
  });

  it('passwords and tokens authenticate; a remembered password stops working once changed or the user is gone', async () => {
    const s = store();
    await s.addUser('ann', hash('first'), 'user');
    await s.addToken('ann', { token: 'tk_aaaaaaaaaaaaaaaaaaaaaaaaaaaaa', label: 'cli', expires: 0, lastAccess: 0, lastOrigin: '' });
    await s.addToken('ann', { token: 'tk_expiredexpiredexpiredexpire', label: 'old', expires: 1, lastAccess: 0, lastOrigin: '' });
    const ac = new AccessControl(s, deny, limits);
    const login = (password: string): Promise<unknown> => ac.authenticate({ kind: 'password', username: 'ann', password }, '127.0.0.1');
    assert.equal(((await login('first')) as { name: string }).name, 'ann');
    assert.equal(await code(login('wrong')), 40101);
    assert.equal(await code(ac.authenticate({ kind: 'password', username: 'nobody', password: 'x' }, '')), 40101);
    assert.equal(await ac.authenticate({ kind: 'anonymous' }, ''), undefined);
    const byToken = await ac.authenticate({ kind: 'token', token: 'tk_aaaaaaaaaaaaaaaaaaaaaaaaaaaaa' }, '10.0.0.7');
    assert.equal(byToken?.name, 'ann');
    assert.deepEqual((await s.tokens('ann')).find((t) => t.label === 'cli')?.lastOrigin, '10.0.0.7');
    assert.equal(await code(ac.authenticate({ kind: 'token', token: 'tk_expiredexpiredexpiredexpire' }, '')), 40101);
    assert.equal(await code(ac.authenticate({ kind: 'token', token: 'tk_nosuchtokennosuchtokennosuc' }, '')), 40101);
    await s.changePassword('ann', hash('second'));
    assert.equal(await code(login('first')), 40101, 'the old password is not served from memory');
    assert.equal(await code(login('second')), undefined);
    await s.removeUser('ann');
    assert.equal(await code(login('second')), 40101);
    assert.equal(await code(ac.authenticate({ kind: 'token', token: 'tk_aaaaaaaaaaaaaaaaaaaaaaaaaaaaa' }, '')), 40101, 'tokens go with their user');
  });

  it('remembering a verified password makes repeated logins cheap', async () => {
    const s = store();
    await s.addUser('fast', bcrypt.hashSync('pw', 10), 'user');
    const ac = new AccessControl(s, deny, limits);
    const credentials = { kind: 'password', username: 'fast', password: 'pw' } as const;
    let start = performance.now();
    await ac.authenticate(credentials, '');
    const first = performance.now() - start;
    start = performance.now();
    for (let i = 0; i < 100; i++) await ac.authenticate(credentials, '');
    const each = (performance.now() - start) / 100;
    assert.ok(each * 20 < first, `cached ${each.toFixed(3)} ms vs bcrypt ${first.toFixed(1)} ms`);
  });
});

describe('access control — two nodes on one auth file', () => {
  for (const accessCache of [false, true]) it(`what one node revokes (password, token, grant, admin role, the user) the other stops honouring within the store's bound${accessCache ? ' (auth-access-cache)' : ''}`, async () => {
    const file = join(tempDir(), 'auth.db');
    const [storeA, storeB] = [new SqliteAuthStore(file), new SqliteAuthStore(file)];
    after(() => Promise.all([storeA.close(), storeB.close()]));
    const [a, b] = [new AccessControl(storeA, deny, limits, accessCache), new AccessControl(storeB, deny, limits, accessCache)];
    const token = 'tk_aaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
    await b.store.addUser('ann', hash('first'), 'admin');
    await b.store.addToken('ann', { token, label: '', expires: 0, lastAccess: 0, lastOrigin: '' });
    const login = (password: string): ReturnType<AccessControl['authenticate']> => a.authenticate({ kind: 'password', username: 'ann', password }, '10.0.0.1');
    const byToken = (): ReturnType<AccessControl['authenticate']> => a.authenticate({ kind: 'token', token }, '10.0.0.1');
    for (let twice = 0; twice < 2; twice++) { // the second round is served from what node A remembers
      assert.equal((await login('first'))?.name, 'ann');
      assert.equal((await byToken())?.name, 'ann');
      assert.equal(await code(a.authorize(await login('first'), ['alerts'], 'write')), undefined, 'an admin may');
    }
    await b.store.changeRole('ann', 'user');
    await b.store.allowAccess('ann', 'alerts', { read: true, write: true });
    await pastStaleReadBound(storeA);
    assert.equal(await code(a.authorize(await login('first'), ['other'], 'write')), 40301, 'no longer an admin');
    assert.equal(await code(a.authorize(await login('first'), ['alerts'], 'write')), undefined);
    await b.store.changePassword('ann', hash('second'));
    await b.store.removeToken('ann', token);
    await b.store.resetAccess('ann', 'alerts');
    await pastStaleReadBound(storeA);
    assert.equal(await code(login('first')), 40101, 'the old password');
    assert.equal(await code(byToken()), 40101, 'the removed token');
    assert.equal(await code(a.authorize(await login('second'), ['alerts'], 'write')), 40301, 'the removed grant');
    await b.store.removeUser('ann');
    await pastStaleReadBound(storeA);
    assert.equal(await code(login('second')), 40101, 'the deleted user');
  });
});

describe('provisioning (auth-users, auth-access, auth-tokens)', () => {
  it('creates and updates users, entries and tokens', async () => {
    const s = store();
    const h1 = hash('one');
    await provision(s, { users: [`phil:${h1}:admin`, `ben:${h1}:user`], access: ['ben:team-*:rw', '*:news:read-only'], tokens: ['ben:tk_bbbbbbbbbbbbbbbbbbbbbbbbbbbbb:ci: nightly'], groups: [] });
    assert.deepEqual((await s.users()).map((u) => [u.name, u.role]), [['phil', 'admin'], ['ben', 'user']]);
    assert.deepEqual(await s.permission('ben', 'team-a'), { read: true, write: true });
    assert.deepEqual(await s.permission('anyone', 'news'), { read: true, write: false });
    assert.equal((await s.tokens('ben'))[0]?.label, 'ci: nightly');
    const h2 = hash('two');
    await provision(s, { users: [`ben:${h2}:admin`], access: [], tokens: ['ben:tk_bbbbbbbbbbbbbbbbbbbbbbbbbbbbb:renamed'], groups: [] });
    assert.equal((await s.user('ben'))?.role, 'admin');
    assert.equal((await s.user('ben'))?.hash, h2);
    assert.deepEqual((await s.tokens('ben')).map((t) => t.label), ['renamed']);
  });

  it('refuses malformed lines, naming them', async () => {
    const s = store();
    const h = hash('x');
    const bad: [Partial<Parameters<typeof provision>[1]>, RegExp][] = [
      [{ users: ['phil:plaintext:admin'] }, /bcrypt hash/],
      [{ users: [`phil:${h}:root`] }, /role must be admin or user/],
      [{ users: [`bad name:${h}:user`] }, /bad user name/],
      [{ users: ['phil'] }, /three fields/],
      [{ access: ['*:news:sometimes'] }, /permission must be/],
      [{ access: ['*:bad/topic:ro'] }, /bad topic pattern/],
      [{ tokens: ['phil:tk_short'] }, /tk_ and 29/],
      [{ access: ['ghost:news:ro'] }, /^Error: user ghost is not a provisioned user, refusing to add ACL entry$/],
      [{ users: [`root:${h}:admin`], access: ['root:news:ro'] }, /^Error: adding access control entries is not allowed for admin roles for user root$/],
      [{ tokens: ['ghost:tk_bbbbbbbbbbbbbbbbbbbbbbbbbbbbb'] }, /^Error: user ghost is not a provisioned user, refusing to add tokens$/],
    ];
    for (const [p, message] of bad) await assert.rejects(provision(s, { users: [], access: [], tokens: [], groups: [], ...p }), message);
  });
});
