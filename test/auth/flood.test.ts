import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { AccessControl } from '../../src/auth/access-control.js';
import type { User } from '../../src/model/access.js';
import { SqliteAuthStore } from '../../src/store/sqlite/auth-store.js';
import { visitorKey } from '../../src/visitors/address.js';
import { code } from '../support/errors.js';
import { tempDir } from '../support/server.js';

const deny = { read: false, write: false };

/** Every `tk_` token is phil's; last-use writes are counted rather than stored. */
class CountingStore extends SqliteAuthStore {
  writes: string[] = [];
  override async userByToken(token: string): Promise<User | undefined> {
    return token.startsWith('tk_') ? ({ name: 'phil', role: 'user' } as User) : undefined;
  }
  override async touchToken(token: string): Promise<void> {
    this.writes.push(token);
  }
}

function counting(): CountingStore {
  const s = new CountingStore(join(tempDir(), 'auth.db'));
  after(() => s.close());
  return s;
}

describe('access control — under a flood', () => {
  it('failed logins count per visitor network: addresses of one IPv6 /64 share a bucket (42909)', async () => {
    const ac = new AccessControl(counting(), deny, {
      authFailures: { burst: 3, replenishMs: 60_000 },
      accountActions: { burst: 3, replenishMs: 60_000 },
      keyOf: (a) => visitorKey(a, 32, 64),
    });
    const wrong = { kind: 'token', token: 'nope' } as const;
    const codes: (number | undefined)[] = [];
    for (let i = 1; i <= 4; i++) codes.push(await code(ac.authenticate(wrong, `2001:db8:0:1::${i}`)));
    assert.deepEqual(codes, [40101, 40101, 40101, 42909]);
    assert.equal(await code(ac.authenticate(wrong, '2001:db8:0:2::1')), 40101, 'another /64 has its own bucket');
  });

  it('a token\'s last use is written once a minute, and the memory of writes is bounded', async () => {
    const s = counting();
    const ac = new AccessControl(s, deny, { authFailures: { burst: 3, replenishMs: 1000 }, accountActions: { burst: 3, replenishMs: 1000 } });
    for (let i = 0; i < 100; i++) await ac.authenticate({ kind: 'token', token: 'tk_same' }, '198.51.100.1');
    assert.equal(s.writes.length, 1);
    for (let i = 0; i < 20_000; i++) await ac.authenticate({ kind: 'token', token: `tk_${i}` }, '198.51.100.1');
    assert.equal(s.writes.length, 20_001);
    await ac.authenticate({ kind: 'token', token: 'tk_19999' }, '198.51.100.1');
    assert.equal(s.writes.length, 20_001, 'a recent token is still remembered');
    await ac.authenticate({ kind: 'token', token: 'tk_same' }, '198.51.100.1');
    assert.equal(s.writes.length, 20_002, 'the oldest was forgotten (10,000 held): written again, once');
  });
});

describe('auth store — remembered reads under a flood of made-up tokens', () => {
  it('holds at most 10,000 reads and still answers the real ones', async () => {
    const s = new SqliteAuthStore(join(tempDir(), 'auth.db'));
    after(() => s.close());
    await s.addUser('phil', 'hash', 'user');
    for (let i = 0; i < 25_000; i++) assert.equal(await s.userByToken(`tk_made_up_${i}`), undefined);
    assert.ok(s.memoSize <= 10_000, `remembered ${s.memoSize}`);
    assert.equal((await s.user('phil'))?.name, 'phil');
  });
});
