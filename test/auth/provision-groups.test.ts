import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import bcrypt from 'bcryptjs';
import fc from 'fast-check';
import { parseGroup, provision, type ProvisioningLines } from '../../src/auth/provision.js';
import { loadConfig } from '../../src/config/load.js';
import { groupNamePattern, usernamePattern } from '../../src/model/access.js';
import { SqliteAuthStore } from '../../src/store/sqlite/auth-store.js';
import { tempDir } from '../support/server.js';

/** `auth-groups` in server.yml (issue 38): the line parser, the checks against auth-users and auth-access, and what provisioning makes. */

const h = bcrypt.hashSync('pw', 4);
const rw = { read: true, write: true };

function store(): SqliteAuthStore {
  const s = new SqliteAuthStore(join(tempDir(), 'auth.db'));
  after(() => s.close());
  return s;
}

const none: ProvisioningLines = { users: [], access: [], tokens: [], groups: [] };

describe('auth-groups lines', () => {
  const nameChars = fc.constantFrom(...'abzAZ09-_.');
  const groupName = fc.array(nameChars, { minLength: 1, maxLength: 64 }).map((c) => c.join('')).filter((n) => n !== 'authenticated');
  const userName = fc.array(fc.constantFrom(...'abZ09-_.+@'), { minLength: 1, maxLength: 12 }).map((c) => c.join(''));

  it('a name and members separated by commas read back as written, a member listed twice once', () => {
    fc.assert(
      fc.property(groupName, fc.array(userName, { maxLength: 8 }), (name, members) => {
        assert.deepEqual(parseGroup(`${name}:${members.join(',')}`), { name, members: [...new Set(members)] });
      }),
    );
  });

  it('any line is either refused with a message naming auth-groups or read into a valid name and members', () => {
    const anyChar = fc.constantFrom(...'ab.-:, *\n/é');
    fc.assert(
      fc.property(fc.array(anyChar, { maxLength: 20 }).map((c) => c.join('')), (line) => {
        let group;
        try {
          group = parseGroup(line);
        } catch (err) {
          assert.match((err as Error).message, /^invalid auth-groups entry /);
          return;
        }
        assert.ok(groupNamePattern.test(group.name), line);
        assert.ok(group.members.every((m) => usernamePattern.test(m)), line);
        assert.equal(line.split(':').length, 2, line);
      }),
    );
  });

  it('refuses each malformed line, naming it', () => {
    const bad: [string, string][] = [
      ['ops', 'invalid auth-groups entry "ops": expected a group name and its members separated by a colon'],
      ['ops:ben:mia', 'invalid auth-groups entry "ops:ben:mia": expected a group name and its members separated by a colon'],
      [':ben', 'invalid auth-groups entry ":ben": invalid group name "": letters, digits, - _ and . only, up to 64'],
      ['o ps:ben', 'invalid auth-groups entry "o ps:ben": invalid group name "o ps": letters, digits, - _ and . only, up to 64'],
      ['authenticated:ben', 'invalid auth-groups entry "authenticated:ben": group name authenticated is reserved for the built-in group of every logged-in user'],
      ['ops:ben,,mia', 'invalid auth-groups entry for ops: bad member name ""'],
      ['ops:ben,m/ia', 'invalid auth-groups entry for ops: bad member name "m/ia"'],
    ];
    for (const [line, message] of bad) assert.throws(() => parseGroup(line), (err: Error) => err.message === message, line);
  });

  it('spaces around the members are no part of them; "NAME:" has none', () => {
    assert.deepEqual(parseGroup('ops: ben , mia '), { name: 'ops', members: ['ben', 'mia'] });
    assert.deepEqual(parseGroup('ops:'), { name: 'ops', members: [] });
    assert.deepEqual(parseGroup('ops: '), { name: 'ops', members: [] });
  });

  it('in a variable or flag, commas separate lines and members alike: a piece with no colon is a member', () => {
    const { config } = loadConfig({ env: { TOCSIN_AUTH_GROUPS: 'ops:ben,mia, dev:,qa:,zoe' } });
    assert.deepEqual(config.authGroups, ['ops:ben,mia', 'dev:', 'qa:zoe']);
    assert.deepEqual(loadConfig({ env: {} }).config.authGroups, []);
  });
});

describe('provisioning auth-groups', () => {
  it('makes the listed groups with exactly their members; auth-access grants to *NAME; a later start without a group removes it', async () => {
    const s = store();
    const users = [`ben:${h}:user`, `mia:${h}:user`, `root:${h}:admin`];
    await provision(s, { ...none, users, groups: ['ops:ben,mia', 'admins:root', 'empty:'], access: ['*ops:deploys:rw', '*empty:x:ro'] });
    assert.deepEqual(await s.groups(), [
      { name: 'admins', members: ['root'], provisioned: true },
      { name: 'empty', members: [], provisioned: true },
      { name: 'ops', members: ['ben', 'mia'], provisioned: true },
    ]);
    assert.deepEqual(await s.permission('mia', 'deploys'), rw);
    await s.addUser('phil', '$hash', 'user');
    await s.addMember('ops', 'phil');
    await provision(s, { ...none, users, groups: ['ops:mia'], access: ['*ops:deploys:rw'] });
    assert.deepEqual(await s.groups(), [{ name: 'ops', members: ['mia', 'phil'], provisioned: true }], 'ben left; the CLI\'s member stays');
    assert.equal(await s.permission('ben', 'deploys'), undefined);
    await provision(s, { ...none, users });
    assert.deepEqual(await s.groups(), []);
    assert.equal(await s.permission('mia', 'deploys'), undefined);
  });

  it('takes over a group of the same name the CLI made, keeping its members', async () => {
    const s = store();
    await s.addUser('phil', '$hash', 'user');
    await s.addGroup('ops');
    await s.addMember('ops', 'phil');
    await provision(s, { ...none, users: [`ben:${h}:user`], groups: ['ops:ben'] });
    assert.deepEqual(await s.groups(), [{ name: 'ops', members: ['ben', 'phil'], provisioned: true }]);
  });

  it('refuses members and grants the file does not provision, and a group listed twice, naming them', async () => {
    const s = store();
    await s.addUser('phil', '$hash', 'user');
    await s.addGroup('cli');
    const users = [`ben:${h}:user`];
    const bad: [Partial<ProvisioningLines>, string][] = [
      [{ groups: ['ops:ben,phil'] }, 'user phil is not a provisioned user, refusing to add them to group ops'],
      [{ groups: ['ops:ben', 'ops:'] }, 'group ops is listed more than once in auth-groups'],
      [{ access: ['*ops:x:rw'] }, 'group ops is not a provisioned group, refusing to add ACL entry'],
      [{ access: ['*cli:x:rw'] }, 'group cli is not a provisioned group, refusing to add ACL entry'],
      [{ access: ['*o/ps:x:rw'] }, 'invalid auth-access entry "*o/ps:x:rw": bad group name'],
      [{ groups: ['ops:ben'], access: ['**ops:x:rw'] }, 'invalid auth-access entry "**ops:x:rw": bad group name'],
    ];
    for (const [lines, message] of bad) await assert.rejects(provision(s, { ...none, users, ...lines }), (err: Error) => err.message === message, message);
    assert.deepEqual(await s.groups(), [{ name: 'cli', members: [], provisioned: false }], 'nothing was provisioned');
    assert.equal(await s.user('ben'), undefined);
  });
});
