import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import { AccessTable } from '../../src/auth/access-table.js';
import { authenticated, groupHolder, type Permission } from '../../src/model/access.js';
import { SqliteAuthStore } from '../../src/store/sqlite/auth-store.js';
import { tempDir } from '../support/server.js';

function store(): SqliteAuthStore {
  const s = new SqliteAuthStore(join(tempDir(), 'auth.db'));
  after(() => s.close());
  return s;
}

const users = ['phil', 'ben', '*'] as const;
const groups = ['ops', 'dev'] as const;
/** Every (group, user) pair: each case puts some of the users in some of the groups. */
const members = groups.flatMap((g) => (['phil', 'ben'] as const).map((u) => [g, u] as const));
/**
 * Patterns and topics over a small alphabet, so that they often match (and differ only by
 * case), with the other wildcards of SQL's LIKE and SQLite's GLOB, which stand for themselves.
 */
const name = fc.stringMatching(/^[aAb_%?[\\]{1,3}$/);
const pattern = fc.stringMatching(/^[aAb_%?[\\*]{1,3}$/);

describe('access table (auth-access-cache)', () => {
  it('property: decides every (user, topic) as the store\'s permission query does, groups and their members included', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ user: fc.constantFrom(...users, authenticated, ...groups.map(groupHolder)), topic: pattern, write: fc.boolean() }), { minLength: 4, maxLength: 16 }),
        fc.array(fc.record({ user: fc.constantFrom(...users), topic: name }), { minLength: 1, maxLength: 8 }),
        fc.subarray(members),
        // Per case, what read goes with write: entries of one write flag grant alike, so the
        // store's ORDER BY ... write DESC LIMIT 1 never picks between two of different effect.
        fc.boolean(),
        fc.boolean(),
        async (entries, asks, memberships, readIfWrite, readIfNot) => {
          const s = new SqliteAuthStore(join(tempDir(), 'auth.db'));
          try {
            for (const u of ['phil', 'ben']) await s.addUser(u, '$', 'user');
            for (const g of groups) await s.addGroup(g);
            for (const [g, u] of memberships) await s.addMember(g, u);
            for (const e of entries) await s.allowAccess(e.user, e.topic, { write: e.write, read: e.write ? readIfWrite : readIfNot });
            const table = new AccessTable(s);
            for (const ask of asks) assert.deepEqual(await table.permission(ask.user, ask.topic), await s.permission(ask.user, ask.topic), JSON.stringify(ask));
          } finally {
            await s.close();
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('is rebuilt after a change, and only then: the store hands the same table until one', async () => {
    const s = store();
    await s.allowAccess('*', 'news*', { read: true, write: false });
    const table = new AccessTable(s);
    const before = await s.accessEntries();
    assert.deepEqual(await table.permission('*', 'news-today'), { read: true, write: false });
    // A flood of made-up names fills the store's memo of request keys past its bound ...
    for (let i = 0; i < 20_000; i++) await s.permission('*', `t${i}`);
    // ... and the whole table is still the one it was.
    assert.equal(await s.accessEntries(), before);
    await s.resetAccess('*', 'news*');
    assert.notEqual(await s.accessEntries(), before);
    assert.equal(await table.permission('*', 'news-today'), undefined);
  });

  it('the user\'s own entries win over everyone\'s, whatever their length; an exact topic loses to a longer pattern', async () => {
    const s = store();
    await s.addUser('phil', '$', 'user');
    const ro: Permission = { read: true, write: false };
    const rw: Permission = { read: true, write: true };
    await s.allowAccess('phil', 'a*', ro);
    await s.allowAccess('*', 'alerts', rw);
    await s.allowAccess('phil', 'ab', ro);
    await s.allowAccess('phil', 'a*b*', rw);
    const table = new AccessTable(s);
    assert.deepEqual(await table.permission('phil', 'alerts'), ro);
    assert.deepEqual(await table.permission('*', 'alerts'), rw);
    assert.deepEqual(await table.permission('phil', 'ab'), rw, 'a*b* is longer than ab');
    assert.equal(await table.permission('phil', 'AB'), undefined, 'case-sensitively');
    assert.equal(await table.permission('ben', 'zzz'), undefined);
  });
});
