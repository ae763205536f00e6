import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { authenticated, groupHolder, newToken } from '../../../src/model/access.js';
import type { AuthStore, Token } from '../../../src/store/auth-store.js';
import { pastStaleReadBound } from '../../support/stale-reads.js';
import { pro } from './auth-fixtures.js';
import { pair, type Open } from './instances.js';

const tk = newToken();
const philsToken: Token = { token: tk, label: '', expires: 0, lastAccess: 0, lastOrigin: '' };
const rw = { read: true, write: true };

interface Change {
  /** What the store holds before; phil (a user) exists in every case. */
  given?: (s: AuthStore) => Promise<unknown>;
  /** The read the first instance makes before and after, so it may have remembered it. */
  read: (s: AuthStore) => Promise<unknown>;
  change: (s: AuthStore) => Promise<unknown>;
  before: unknown;
  after: unknown;
}

/** Every kind of change access control decides on, made through the second instance. */
const changes: Record<string, Change> = {
  'a password change': { read: async (s) => (await s.user('phil'))?.hash, change: (s) => s.changePassword('phil', '$two'), before: '$one', after: '$two' },
  'a role change': { read: async (s) => (await s.user('phil'))?.role, change: (s) => s.changeRole('phil', 'admin'), before: 'user', after: 'admin' },
  'a new token': { read: async (s) => (await s.userByToken(tk))?.name, change: (s) => s.addToken('phil', philsToken), before: undefined, after: 'phil' },
  'a token removal': {
    given: (s) => s.addToken('phil', philsToken),
    read: async (s) => (await s.userByToken(tk))?.name,
    change: (s) => s.removeToken('phil', tk),
    before: 'phil',
    after: undefined,
  },
  'a new grant': { read: (s) => s.permission('phil', 'alerts'), change: (s) => s.allowAccess('phil', 'alerts', rw), before: undefined, after: rw },
  'a new grant to every logged-in user (*authenticated)': {
    read: (s) => s.permission('phil', 'team'),
    change: (s) => s.allowAccess(authenticated, 'team', rw),
    before: undefined,
    after: rw,
  },
  'a new member of a group with a grant': {
    given: async (s) => {
      await s.addGroup('ops');
      await s.allowAccess(groupHolder('ops'), 'deploys', rw);
    },
    read: (s) => s.permission('phil', 'deploys'),
    change: (s) => s.addMember('ops', 'phil'),
    before: undefined,
    after: rw,
  },
  'a group removal, in the table of every membership (auth-access-cache)': {
    given: async (s) => {
      await s.addGroup('ops');
      await s.addMember('ops', 'phil');
    },
    read: (s) => s.memberships(),
    change: (s) => s.removeGroup('ops'),
    before: [{ group: 'ops', user: 'phil' }],
    after: [],
  },
  'a membership from a proxy header': {
    given: (s) => s.addGroup('ops'),
    read: async (s) => (await s.groups()).map((g) => g.members),
    change: (s) => s.syncMemberships('phil', ['ops', 'unknown']),
    before: [[]],
    after: [['phil']],
  },
  'a scoped token': {
    read: async (s) => (await s.userByToken(tk))?.scopes,
    change: (s) => s.addToken('phil', { ...philsToken, scopes: [{ topic: 'team', permission: rw }] }),
    before: undefined,
    after: [{ topic: 'team', permission: rw }],
  },
  'a grant removal': {
    given: (s) => s.allowAccess('*', 'news', rw),
    read: (s) => s.permission('phil', 'news'),
    change: (s) => s.resetAccess('*', 'news'),
    before: rw,
    after: undefined,
  },
  'a grant removal, in the table of every entry (auth-access-cache)': {
    given: (s) => s.allowAccess('phil', 'news*', rw),
    read: async (s) => (await s.accessEntries()).map((e) => `${e.user} ${e.topic} ${e.permission.read} ${e.permission.write}`),
    change: (s) => s.resetAccess('phil', 'news*'),
    before: ['phil news* true true'],
    after: [],
  },
  'a new grant, in the table of every entry': {
    read: async (s) => (await s.accessEntries()).map((e) => `${e.user} ${e.topic}`),
    change: (s) => s.allowAccess('*', 'alerts', rw),
    before: [],
    after: ['* alerts'],
  },
  'a tier assignment': {
    given: (s) => s.putTier(pro, false),
    read: async (s) => (await s.user('phil'))?.tier?.code,
    change: (s) => s.changeTier('phil', 'pro'),
    before: undefined,
    after: 'pro',
  },
  'a change of tier limits': {
    given: async (s) => {
      await s.putTier(pro, false);
      await s.changeTier('phil', 'pro');
    },
    read: async (s) => (await s.user('phil'))?.tier?.messageLimit,
    change: (s) => s.putTier({ ...pro, messageLimit: 5 }, true),
    before: pro.messageLimit,
    after: 5,
  },
  'a reservation': {
    read: async (s) => [await s.permission('ben', 'phil_alerts'), await s.reservationOwner('phil_alerts')],
    change: (s) => s.addReservation('phil', 'phil_alerts', { read: true, write: false }),
    before: [undefined, undefined],
    after: [{ read: true, write: false }, 'phil'],
  },
  'a user deletion': {
    given: (s) => s.addToken('phil', philsToken),
    read: async (s) => [(await s.user('phil'))?.name, (await s.userByToken(tk))?.name, await s.userCount()],
    change: (s) => s.removeUser('phil'),
    before: ['phil', 'phil', 1],
    after: [undefined, undefined, 0],
  },
  'a verified phone number': {
    read: (s) => s.phoneNumbers('phil'),
    change: (s) => s.addPhoneNumber('phil', '+12223334444'),
    before: [],
    after: ['+12223334444'],
  },
  'a phone number removal': {
    given: (s) => s.addPhoneNumber('phil', '+12223334444'),
    read: (s) => s.phoneNumbers('phil'),
    change: (s) => s.removePhoneNumber('phil', '+12223334444'),
    before: ['+12223334444'],
    after: [],
  },
  'a new user': { read: async (s) => [(await s.user('ann'))?.name, await s.userCount()], change: (s) => s.addUser('ann', '$a', 'user'), before: [undefined, 1], after: ['ann', 2] },
};

/**
 * The AuthStore contract across instances on one store (another node, or the CLI beside the
 * server): part of describeAuthStore. A change through one is seen by the other's next
 * read once its staleness bound has passed, whatever it had remembered.
 */
export function describeSharedAuthStore(open: Open<AuthStore>): void {
  describe('two instances on one store', () => {
    for (const [name, { given, read, change, before, after }] of Object.entries(changes)) {
      it(`${name} made through one instance is seen by the other's next read`, async () => {
        const [reader, writer] = await pair(open);
        await reader.addUser('phil', '$one', 'user');
        await given?.(reader);
        assert.deepEqual(await read(reader), before);
        assert.deepEqual(await read(reader), before, 'read twice, so a remembered answer would be used');
        await change(writer);
        await pastStaleReadBound(reader);
        assert.deepEqual(await read(reader), after);
        assert.deepEqual(await read(writer), after, 'and by the writer itself');
      });
    }
  });
}
