import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { authenticated, groupHolder, newToken, tokenMaxCount, tokenPattern } from '../../../src/model/access.js';
import { AlreadyExists, InUse, NotFound, Provisioned, type AuthStore, type MagicLink, type Token } from '../../../src/store/auth-store.js';
import { pro } from './auth-fixtures.js';
import { closedAfter, type Open } from './instances.js';
import { describeSharedAuthStore } from './shared-auth-store.contract.js';

const token = (expires: number): Token => ({ token: newToken(), label: '', expires, lastAccess: 0, lastOrigin: '' });
const rw = { read: true, write: true };

/**
 * The contract of the AuthStore port (src/store/auth-store.ts), for every backend: a
 * runner calls this with the backend's factory. Each case opens its own fresh store.
 */
export function describeAuthStore(name: string, open: Open<AuthStore>): void {
  describe(`auth store contract — ${name}`, () => {
    const opened = closedAfter(open);
    const store = async (): Promise<AuthStore> => (await opened()).instance;

    it('adds users with a sync topic and empty settings, and keeps settings as given', async () => {
      const s = await store();
      await s.addUser('phil', '$hash', 'user');
      const phil = await s.user('phil');
      assert.match(phil!.syncTopic, /^st_[a-z0-9]{16}$/);
      assert.deepEqual(phil!.prefs, {});
      assert.equal(phil!.tier, undefined);
      await assert.rejects(s.addUser('phil', '$other', 'admin'), AlreadyExists);
      assert.equal(await s.userCount(), 1);
      await s.addUser('ben', '$hash', 'admin');
      assert.equal(await s.userCount(), 2, 'a write forgets the remembered count');
      const prefs = { language: 'de', notification: { min_priority: 3 }, subscriptions: [{ base_url: 'https://ntfy.sh', topic: 'x', display_name: null }] };
      await s.changePrefs('phil', prefs);
      assert.deepEqual((await s.user('phil'))!.prefs, prefs);
      await assert.rejects(s.changePrefs('nobody', {}), NotFound);
    });

    it('imports a user as it is, once: hash, role, tier, sync topic, settings', async () => {
      const s = await store();
      await s.putTier(pro, false);
      const prefs = { language: 'de', notification: { sound: 'dadum' } };
      const imported = { name: 'ben', hash: '$2a$10$kept', role: 'user' as const, tier: pro.code, syncTopic: 'st_0123456789abcdef', prefs, created: 1_700_000_000 };
      assert.equal(await s.importUser(imported), true);
      const ben = await s.user('ben');
      assert.deepEqual({ hash: ben?.hash, role: ben?.role, tier: ben?.tier, syncTopic: ben?.syncTopic, prefs: ben?.prefs, provisioned: ben?.provisioned },
        { hash: '$2a$10$kept', role: 'user', tier: pro, syncTopic: 'st_0123456789abcdef', prefs, provisioned: false });
      assert.equal(await s.importUser({ ...imported, hash: '$2a$10$other', role: 'admin' }), false, 'a user already here stays');
      assert.equal((await s.user('ben'))?.hash, '$2a$10$kept');
      assert.equal(await s.userCount(), 1);
      await assert.rejects(s.importUser({ ...imported, name: 'carl', tier: 'nosuchtier' }), NotFound);
      assert.equal(await s.user('carl'), undefined);
    });

    it('sees its own changes at once', async () => {
      const s = await store();
      await s.addUser('phil', '$one', 'user');
      assert.equal(await s.permission('phil', 'alerts'), undefined);
      await s.changePassword('phil', '$two');
      await s.allowAccess('phil', 'alerts', { read: true, write: false });
      assert.equal((await s.user('phil'))?.hash, '$two');
      assert.deepEqual(await s.permission('phil', 'alerts'), { read: true, write: false });
      await s.resetAccess('phil');
      assert.equal(await s.permission('phil', 'alerts'), undefined);
      const t = token(0);
      await s.addToken('phil', t);
      assert.equal((await s.userByToken(t.token))?.name, 'phil');
      await s.removeUser('phil');
      assert.equal(await s.userByToken(t.token), undefined, 'the token went with its user');
    });

    it('adds, replaces, assigns and removes tiers; a tier in use stays', async () => {
      const s = await store();
      await s.putTier(pro, false);
      await assert.rejects(s.putTier(pro, false), AlreadyExists);
      await s.putTier({ ...pro, messageLimit: 20_000 }, true);
      assert.deepEqual(await s.tiers(), [{ ...pro, messageLimit: 20_000 }]);
      await s.addUser('ben', '$hash', 'user');
      await s.changeTier('ben', 'pro');
      assert.equal((await s.user('ben'))!.tier?.messageLimit, 20_000);
      await assert.rejects(s.changeTier('ben', 'gold'), NotFound);
      await assert.rejects(s.removeTier('pro'), InUse);
      await s.changeTier('ben', undefined);
      assert.equal((await s.user('ben'))!.tier, undefined);
      await s.removeTier('pro');
      assert.equal(await s.tier('pro'), undefined);
      await assert.rejects(s.removeTier('pro'), NotFound);
    });

    it('matches patterns case-sensitively, `*` the only wildcard (ntfy 2.24)', async () => {
      const s = await store();
      await s.addUser('phil', '$hash', 'user');
      await s.allowAccess('phil', 'Alerts', rw);
      await s.allowAccess('phil', 'News*', { read: true, write: false });
      await s.allowAccess('*', 'a_c', rw);
      await s.allowAccess('*', 'd%f', rw);
      await s.allowAccess('*', 'g?[i]', rw);
      await s.allowAccess('*', 'x\\_*', rw);
      assert.deepEqual(await s.permission('phil', 'Alerts'), rw);
      assert.equal(await s.permission('phil', 'alerts'), undefined, 'a grant on Alerts does not open alerts');
      assert.equal(await s.permission('phil', 'ALERTS'), undefined);
      assert.deepEqual(await s.permission('phil', 'News-today'), { read: true, write: false });
      assert.equal(await s.permission('phil', 'news-today'), undefined);
      assert.deepEqual(await s.permission('*', 'a_c'), rw);
      assert.equal(await s.permission('*', 'abc'), undefined, '_ is itself');
      assert.deepEqual(await s.permission('*', 'd%f'), rw);
      assert.equal(await s.permission('*', 'def'), undefined, '% is itself');
      assert.equal(await s.permission('*', 'd%%f'), undefined);
      assert.deepEqual(await s.permission('*', 'g?[i]'), rw);
      assert.equal(await s.permission('*', 'ghi'), undefined, '? and [ are themselves');
      assert.deepEqual(await s.permission('*', 'x\\_1'), rw, 'a backslash is itself, not an escape');
      assert.equal(await s.permission('*', 'x_1'), undefined);
      assert.equal(await s.othersHaveAccess('ben', 'Alerts'), true);
      assert.equal(await s.othersHaveAccess('ben', 'alerts'), false);
      assert.equal(await s.othersHaveAccess('ben', 'news-today'), false);
    });

    it('reserves topics: owner read-write, everyone as chosen; others\' entries block a reservation', async () => {
      const s = await store();
      await s.addUser('phil', '$hash', 'user');
      await s.addUser('ben', '$hash', 'user');
      await s.addReservation('phil', 'phil_alerts', { read: true, write: false });
      assert.deepEqual(await s.reservations('phil'), [{ topic: 'phil_alerts', everyone: { read: true, write: false } }]);
      assert.equal(await s.reservationOwner('phil_alerts'), 'phil');
      assert.deepEqual(await s.permission('phil', 'phil_alerts'), rw);
      assert.deepEqual(await s.permission('ben', 'phil_alerts'), { read: true, write: false });
      assert.equal(await s.othersHaveAccess('phil', 'phil_alerts'), false);
      assert.equal(await s.othersHaveAccess('ben', 'phil_alerts'), true);
      await s.allowAccess('*', 'public*', rw);
      assert.equal(await s.othersHaveAccess('phil', 'public-news'), true, 'a pattern of someone else covers it');
      await s.removeReservations('phil', ['phil_alerts']);
      assert.deepEqual(await s.reservations('phil'), []);
      assert.equal(await s.permission('ben', 'phil_alerts'), undefined);
    });

    it('deleting a user removes their reservations with everyone\'s entries', async () => {
      const s = await store();
      await s.addUser('phil', '$hash', 'user');
      await s.addReservation('phil', 'mine', { read: false, write: false });
      await s.removeUser('phil');
      assert.deepEqual(await s.grants('*'), []);
    });

    it('changes a token\'s label and expiry, and removes expired tokens', async () => {
      const s = await store();
      await s.addUser('phil', '$hash', 'user');
      const t = { ...token(1000), label: 'old' };
      assert.match(t.token, tokenPattern);
      await s.addToken('phil', t);
      assert.deepEqual(await s.changeToken('phil', t.token, { label: 'CI' }), { ...t, label: 'CI', provisioned: false });
      assert.equal((await s.changeToken('phil', t.token, { expires: 2000 }))!.expires, 2000);
      assert.equal(await s.changeToken('ben', t.token, { label: 'x' }), undefined);
      const forever = token(0);
      await s.addToken('phil', forever);
      await s.removeExpiredTokens(2000);
      assert.deepEqual((await s.tokens('phil')).map((k) => k.token), [forever.token]);
    });

    it('*authenticated entries apply to every user, never to anonymous; they rank with the user\'s own by length, before everyone\'s', async () => {
      const s = await store();
      await s.addUser('phil', '$hash', 'user');
      const [ro, rw, none] = [{ read: true, write: false }, { read: true, write: true }, { read: false, write: false }];
      await s.allowAccess(authenticated, 'team*', rw);
      await s.allowAccess(authenticated, 'shared', ro);
      await s.allowAccess('phil', 'team-secret', none);
      await s.allowAccess('phil', 'shared', rw);
      await s.allowAccess('phil', 't*', none);
      await s.allowAccess('*', 'team*', ro);
      await s.allowAccess('*', 'open', ro);
      assert.deepEqual(await s.permission('phil', 'team-a'), rw, 'the group\'s longer pattern beats phil\'s shorter one');
      assert.deepEqual(await s.permission('phil', 'team-secret'), none, 'phil\'s own longer entry beats the group\'s');
      assert.deepEqual(await s.permission('phil', 'shared'), rw, 'at equal length phil\'s own entry first');
      assert.deepEqual(await s.permission('phil', 'open'), ro, 'everyone\'s after');
      assert.deepEqual(await s.permission('*', 'team-a'), ro, 'anonymous gets everyone\'s only');
      assert.equal(await s.permission('*', 'shared'), undefined);
      assert.deepEqual(await s.grants(authenticated), [{ topic: 'shared', permission: ro }, { topic: 'team*', permission: rw }]);
      assert.deepEqual((await s.accessEntries()).filter((e) => e.user === authenticated).length, 2);
      await s.resetAccess(authenticated, 'team*');
      assert.deepEqual(await s.permission('phil', 'team-a'), none, 'phil\'s t* now decides');
    });

    it('a named group\'s entries apply to its members only, ranked with the user\'s own and *authenticated\'s by length', async () => {
      const s = await store();
      for (const u of ['phil', 'ben']) await s.addUser(u, '$hash', 'user');
      const [ro, rw, wo, none] = [{ read: true, write: false }, { read: true, write: true }, { read: false, write: true }, { read: false, write: false }];
      await s.addGroup('ops');
      await s.addGroup('dev');
      await assert.rejects(s.addGroup('ops'), AlreadyExists);
      await s.addMember('ops', 'phil');
      await s.addMember('ops', 'phil'); // already one: stays
      await s.addMember('dev', 'phil');
      await assert.rejects(s.addMember('nope', 'phil'), NotFound);
      await assert.rejects(s.addMember('ops', 'nobody'), NotFound);
      await assert.rejects(s.allowAccess(groupHolder('nope'), 'x', rw), NotFound);
      await s.allowAccess(groupHolder('ops'), 'deploy*', rw);
      await s.allowAccess(groupHolder('dev'), 'deploys-prod', ro);
      await s.allowAccess(groupHolder('dev'), 'logs-*', wo);
      await s.allowAccess(groupHolder('ops'), 'logs*', ro);
      await s.allowAccess(authenticated, 'logs-a*', none);
      await s.allowAccess('phil', 'deploy*', none);
      assert.deepEqual(await s.permission('phil', 'deploys-prod'), ro, 'dev\'s exact topic is longer than ops\' and phil\'s patterns');
      assert.deepEqual(await s.permission('phil', 'deploy-x'), none, 'at equal length phil\'s own before the group\'s');
      assert.deepEqual(await s.permission('phil', 'logs-b'), wo, 'dev\'s logs-* is longer than ops\' logs*');
      assert.deepEqual(await s.permission('phil', 'logs-ab'), none, '*authenticated\'s longer pattern');
      assert.equal(await s.permission('ben', 'deploys-prod'), undefined, 'ben is in no group');
      assert.equal(await s.permission('*', 'deploys-prod'), undefined, 'nor is anonymous');
      assert.deepEqual(await s.groups(), [{ name: 'dev', members: ['phil'], provisioned: false }, { name: 'ops', members: ['phil'], provisioned: false }]);
      assert.deepEqual((await s.memberships()).map((m) => `${m.group} ${m.user}`).sort(), ['dev phil', 'ops phil']);
      await s.removeMember('ops', 'phil');
      await assert.rejects(s.removeMember('ops', 'phil'), NotFound);
      assert.deepEqual(await s.permission('phil', 'deploy-x'), none);
      assert.deepEqual(await s.permission('phil', 'logs-c'), wo);
      await s.removeGroup('dev');
      await assert.rejects(s.removeGroup('dev'), NotFound);
      assert.equal(await s.permission('phil', 'logs-c'), undefined);
      assert.deepEqual(await s.grants(groupHolder('dev')), [], 'its entries went with it');
      await s.addGroup('dev');
      assert.deepEqual(await s.groups(), [{ name: 'dev', members: [], provisioned: false }, { name: 'ops', members: [], provisioned: false }], 'a new group of the name has none of the old one\'s members');
      await s.addMember('ops', 'ben');
      await s.removeUser('ben');
      await s.addUser('ben', '$hash', 'user');
      assert.deepEqual((await s.groups()).find((g) => g.name === 'ops')?.members, [], 'nor a new user of the name the old one\'s groups');
    });

    it('header memberships follow the list given, leaving manual and provisioned ones; provisioned groups and members are server.yml\'s', async () => {
      const s = await store();
      await s.addUser('phil', '$hash', 'user');
      await s.provision({ users: [{ name: 'ben', hash: '$1', role: 'user' }], grants: [{ user: groupHolder('ops'), topic: 'x', permission: { read: true, write: true } }], tokens: [], groups: [{ name: 'ops', members: ['ben'] }] });
      await s.addGroup('dev');
      await s.addGroup('qa');
      await s.addMember('qa', 'phil');
      await s.syncMemberships('phil', ['ops', 'dev', 'missing']);
      const members = async (): Promise<string[]> => (await s.groups()).map((g) => `${g.name}:${g.members.join(',')}`);
      assert.deepEqual(await members(), ['dev:phil', 'ops:ben,phil', 'qa:phil']);
      await s.syncMemberships('phil', ['qa']);
      assert.deepEqual(await members(), ['dev:', 'ops:ben', 'qa:phil'], 'the manual membership of qa stays');
      await s.syncMemberships('ben', []);
      assert.deepEqual(await members(), ['dev:', 'ops:ben', 'qa:phil'], 'ben\'s provisioned membership stays');
      await assert.rejects(s.syncMemberships('nobody', ['ops']), NotFound);
      await assert.rejects(s.removeMember('ops', 'ben'), Provisioned);
      await assert.rejects(s.removeGroup('ops'), Provisioned);
      assert.deepEqual((await s.groups()).find((g) => g.name === 'ops')?.provisioned, true);
      assert.deepEqual(await s.permission('ben', 'x'), { read: true, write: true });
      await s.provision({ users: [{ name: 'ben', hash: '$1', role: 'user' }], grants: [], tokens: [], groups: [] });
      assert.deepEqual(await members(), ['dev:', 'qa:phil'], 'an unlisted provisioned group goes');
      assert.equal(await s.permission('ben', 'x'), undefined);
    });

    it('keeps a token\'s scopes: listed with it, and on the user it authenticates', async () => {
      const s = await store();
      await s.addUser('phil', '$hash', 'user');
      const scopes = [{ topic: 'deploys', permission: { read: false, write: true } }, { topic: 'logs-*', permission: { read: true, write: false } }];
      const scoped = { ...token(0), label: 'ci', scopes };
      const plain = token(0);
      await s.addToken('phil', scoped);
      await s.addToken('phil', plain);
      const listed = await s.tokens('phil');
      assert.deepEqual(listed.find((t) => t.token === scoped.token), { ...scoped, provisioned: false });
      assert.equal(listed.find((t) => t.token === plain.token)?.scopes, undefined);
      assert.deepEqual((await s.userByToken(scoped.token))?.scopes, scopes);
      assert.equal((await s.userByToken(plain.token))?.scopes, undefined);
      assert.deepEqual((await s.changeToken('phil', scoped.token, { label: 'deploy' }))?.scopes, scopes, 'a change keeps the scopes');
    });

    it('keeps each user\'s verified phone numbers in text order, once each; they go with the user', async () => {
      const s = await store();
      await s.addUser('phil', '$hash', 'user');
      await s.addUser('ben', '$hash', 'user');
      await s.addPhoneNumber('phil', '+4917612345678');
      await s.addPhoneNumber('phil', '+12223334444');
      await s.addPhoneNumber('ben', '+12223334444');
      assert.deepEqual(await s.phoneNumbers('phil'), ['+12223334444', '+4917612345678']);
      await assert.rejects(s.addPhoneNumber('phil', '+12223334444'), AlreadyExists);
      await assert.rejects(s.addPhoneNumber('nobody', '+12223334444'), NotFound);
      await s.removePhoneNumber('phil', '+12223334444');
      await s.removePhoneNumber('phil', '+19999999999'); // not theirs: nothing happens
      assert.deepEqual(await s.phoneNumbers('phil'), ['+4917612345678']);
      assert.deepEqual(await s.phoneNumbers('ben'), ['+12223334444'], 'another user\'s number stays');
      await s.removeUser('phil');
      await s.addUser('phil', '$hash', 'user');
      assert.deepEqual(await s.phoneNumbers('phil'), [], 'a new user of the name has none of the old one\'s numbers');
      await s.addPhoneNumber('phil', '+4917612345678');
      assert.deepEqual(await s.phoneNumbers('phil'), ['+4917612345678']);
    });

    describe('e-mail addresses and magic links (ntfy 2.25)', () => {
      let n = 0;
      const link = (username: string, email: string, kind: MagicLink['kind'] = 'email-verify', expires = Math.floor(Date.now() / 1000) + 3600): MagicLink =>
        ({ selector: `sel${++n}x${Math.random().toString(36).slice(2)}`, hash: 'ab'.repeat(32), kind, username, email, expires });

      it('a followed verification link makes the address verified and, the first one, primary; it works once', async () => {
        const s = await store();
        await s.addUser('phil', '$hash', 'user');
        const first = link('phil', 'phil@example.com');
        await s.addMagicLink(first);
        assert.deepEqual(await s.emails('phil'), [{ address: 'phil@example.com', primary: false, pending: true }]);
        assert.deepEqual(await s.magicLink(first.selector), first);
        assert.equal(await s.verifyEmail(first.selector), true);
        assert.equal(await s.verifyEmail(first.selector), false, 'used up');
        assert.equal(await s.magicLink(first.selector), undefined);
        const second = link('phil', 'other@example.com');
        await s.addMagicLink(second);
        assert.equal(await s.verifyEmail(second.selector), true);
        assert.deepEqual(await s.emails('phil'), [
          { address: 'other@example.com', primary: false, pending: false },
          { address: 'phil@example.com', primary: true, pending: false },
        ]);
        assert.equal((await s.userByPrimaryEmail('phil@example.com'))?.name, 'phil');
        assert.equal(await s.userByPrimaryEmail('other@example.com'), undefined);
        await assert.rejects(s.addMagicLink(link('nobody', 'x@example.com')), NotFound);
      });

      it('of links followed at the same moment exactly one acts', async () => {
        const s = await store();
        await s.addUser('phil', '$hash', 'user');
        const l = link('phil', 'phil@example.com');
        await s.addMagicLink(l);
        const used = await Promise.all(Array.from({ length: 5 }, () => s.verifyEmail(l.selector)));
        assert.equal(used.filter(Boolean).length, 1);
      });

      it('a new link replaces the earlier one of its scope: the same address, or any password reset', async () => {
        const s = await store();
        await s.addUser('phil', '$hash', 'user');
        const [a1, a2, b] = [link('phil', 'a@example.com'), link('phil', 'a@example.com'), link('phil', 'b@example.com')];
        const [r1, r2] = [link('phil', '', 'password-reset'), link('phil', '', 'password-reset')];
        for (const l of [a1, b, r1, a2, r2]) await s.addMagicLink(l);
        assert.equal(await s.magicLink(a1.selector), undefined);
        assert.equal(await s.magicLink(r1.selector), undefined);
        assert.deepEqual([await s.magicLink(a2.selector), await s.magicLink(b.selector), await s.magicLink(r2.selector)], [a2, b, r2]);
        assert.deepEqual((await s.emails('phil')).map((e) => e.address), ['a@example.com', 'b@example.com'], 'the reset link is no pending address');
      });

      it('an address is the primary of one account at most; another may verify it as a secondary', async () => {
        const s = await store();
        await s.addUser('phil', '$hash', 'user');
        await s.addUser('ben', '$hash', 'user');
        for (const [user, address] of [['phil', 'shared@example.com'], ['ben', 'shared@example.com'], ['ben', 'ben@example.com']] as const) {
          const l = link(user, address);
          await s.addMagicLink(l);
          assert.equal(await s.verifyEmail(l.selector), true);
        }
        assert.deepEqual(await s.emails('ben'), [
          { address: 'ben@example.com', primary: true, pending: false },
          { address: 'shared@example.com', primary: false, pending: false },
        ]);
        await assert.rejects(s.setPrimaryEmail('ben', 'shared@example.com'), AlreadyExists);
        await assert.rejects(s.setPrimaryEmail('ben', 'never@example.com'), NotFound);
        await s.removeEmail('phil', 'shared@example.com');
        assert.deepEqual(await s.emails('phil'), [], 'removing the primary leaves none');
        await s.setPrimaryEmail('ben', 'shared@example.com');
        assert.deepEqual((await s.emails('ben')).filter((e) => e.primary).map((e) => e.address), ['shared@example.com'], 'the primary moved');
        assert.equal((await s.userByPrimaryEmail('shared@example.com'))?.name, 'ben');
      });

      it('removing an address removes its pending link too; expired links are not pending and are swept', async () => {
        const s = await store();
        await s.addUser('phil', '$hash', 'user');
        const pending = link('phil', 'a@example.com');
        const expired = link('phil', 'old@example.com', 'email-verify', 1000);
        await s.addMagicLink(pending);
        await s.addMagicLink(expired);
        assert.deepEqual((await s.emails('phil')).map((e) => e.address), ['a@example.com']);
        await s.removeEmail('phil', 'a@example.com');
        assert.equal(await s.magicLink(pending.selector), undefined);
        assert.equal((await s.magicLink(expired.selector))?.expires, 1000, 'kept until swept, the caller checks expiry');
        await s.removeExpiredMagicLinks(2000);
        assert.equal(await s.magicLink(expired.selector), undefined);
        await s.removeEmail('nobody', 'a@example.com'); // nothing happens
      });

      it('a reset link changes the password once; a provisioned user\'s changes nothing; links and addresses go with the user', async () => {
        const s = await store();
        await s.addUser('phil', '$old', 'user');
        const verify = link('phil', 'phil@example.com');
        const reset = link('phil', '', 'password-reset');
        await s.addMagicLink(verify);
        await s.addMagicLink(reset);
        assert.equal(await s.resetPassword(verify.selector, '$new'), false, 'not a reset link');
        assert.equal(await s.resetPassword(reset.selector, '$new'), true);
        assert.equal(await s.resetPassword(reset.selector, '$newer'), false);
        assert.equal((await s.user('phil'))?.hash, '$new');
        await s.provision({ users: [{ name: 'ops', hash: '$1', role: 'user' }], grants: [], tokens: [] });
        const opsReset = link('ops', '', 'password-reset');
        await s.addMagicLink(opsReset);
        await assert.rejects(s.resetPassword(opsReset.selector, '$x'), Provisioned);
        assert.equal((await s.user('ops'))?.hash, '$1');
        assert.equal(await s.verifyEmail(verify.selector), true);
        await s.removeUser('phil');
        await s.addUser('phil', '$hash', 'user');
        assert.deepEqual(await s.emails('phil'), [], 'a new user of the name has none of the old one\'s addresses');
        assert.equal(await s.userByPrimaryEmail('phil@example.com'), undefined);
      });
    });

    describe('at most tokenMaxCount tokens per user', () => {
      it('a 61st token removes the one expiring first; other users keep theirs', async () => {
        const s = await store();
        await s.addUser('phil', '$hash', 'user');
        await s.addUser('ben', '$hash', 'user');
        const bens = token(5);
        await s.addToken('ben', bens);
        const made = [];
        for (let i = 0; i < tokenMaxCount; i++) made.push(token(1000 + ((i * 7) % tokenMaxCount))); // expiries 1000..1059, shuffled
        for (const t of made) await s.addToken('phil', t);
        assert.equal((await s.tokens('phil')).length, 60);
        await s.addToken('phil', token(2000));
        const kept = new Set((await s.tokens('phil')).map((t) => t.token));
        assert.equal(kept.size, 60);
        assert.deepEqual(made.filter((t) => !kept.has(t.token)).map((t) => t.expires), [1000]);
        assert.deepEqual((await s.tokens('ben')).map((t) => t.token), [bens.token]);
      });

      it('keeps the new token, never-expiring ones, and the newer of equal expiries', async () => {
        const s = await store();
        await s.addUser('phil', '$hash', 'user');
        const forever = token(0);
        await s.addToken('phil', forever);
        const same = [];
        for (let i = 0; i < tokenMaxCount - 1; i++) same.push(token(5000));
        for (const t of same) await s.addToken('phil', t);
        const short = token(10); // expires before all others, yet was just handed out
        await s.addToken('phil', short);
        const kept = new Set((await s.tokens('phil')).map((t) => t.token));
        assert.equal(kept.size, 60);
        assert.ok(kept.has(short.token) && kept.has(forever.token));
        assert.equal(kept.has(same[0]!.token), false, 'the oldest of the equal expiries went');
      });

      it('never removes a provisioned token', async () => {
        const s = await store();
        const provisioned = newToken();
        await s.provision({ users: [{ name: 'phil', hash: '$hash', role: 'user' }], grants: [], tokens: [{ user: 'phil', token: provisioned, label: 'CI' }] });
        for (let i = 0; i < tokenMaxCount + 5; i++) await s.addToken('phil', token(100 + i));
        const kept = await s.tokens('phil');
        assert.equal(kept.length, 60);
        assert.ok(kept.some((t) => t.token === provisioned && t.provisioned));
      });
    });

    describe('provisioning', () => {
      it('makes provisioned users, entries and tokens exactly what is listed; what the CLI made stays', async () => {
        const s = await store();
        const token1 = newToken();
        const token2 = newToken();
        await s.addUser('cli-user', '$cli', 'user');
        await s.allowAccess('cli-user', 'cli-topic', rw);
        await s.provision({
          users: [{ name: 'ops', hash: '$1', role: 'user' }, { name: 'old', hash: '$1', role: 'user' }],
          grants: [{ user: 'ops', topic: 'ops*', permission: rw }, { user: '*', topic: 'news', permission: { read: true, write: false } }],
          tokens: [{ user: 'ops', token: token1, label: 'deploy' }, { user: 'old', token: token2, label: '' }],
        });
        assert.equal((await s.user('ops'))?.provisioned, true);
        assert.equal((await s.tokens('ops'))[0]?.provisioned, true);
        await s.provision({ users: [{ name: 'ops', hash: '$2', role: 'user' }], grants: [{ user: 'ops', topic: 'ops-db', permission: rw }], tokens: [{ user: 'ops', token: token1, label: 'ci' }] });
        assert.equal((await s.user('ops'))?.hash, '$2');
        assert.equal(await s.user('old'), undefined, 'no longer listed, so removed');
        assert.deepEqual((await s.grants('ops')).map((g) => g.topic), ['ops-db']);
        assert.deepEqual(await s.grants('*'), [], 'everyone\'s provisioned entry went too');
        assert.deepEqual((await s.tokens('ops')).map((t) => [t.token, t.label]), [[token1, 'ci']]);
        assert.equal(await s.userByToken(token2), undefined);
        assert.deepEqual([(await s.user('cli-user'))?.hash, (await s.grants('cli-user')).length], ['$cli', 1], 'untouched');
      });

      it('makes provisioned groups and memberships exactly what is listed; a group the CLI made is taken over with its members and grants', async () => {
        const s = await store();
        await s.addUser('cli-user', '$cli', 'user');
        await s.addGroup('ops');
        await s.addMember('ops', 'cli-user');
        await s.allowAccess(groupHolder('ops'), 'cli-topic', rw);
        const users = [{ name: 'ben', hash: '$1', role: 'user' as const }, { name: 'mia', hash: '$1', role: 'user' as const }];
        await s.provision({
          users,
          grants: [{ user: groupHolder('ops'), topic: 'deploys', permission: rw }, { user: groupHolder('old'), topic: 'x', permission: rw }],
          tokens: [],
          groups: [{ name: 'ops', members: ['ben', 'mia'] }, { name: 'old', members: ['ben'] }],
        });
        assert.deepEqual(await s.groups(), [{ name: 'old', members: ['ben'], provisioned: true }, { name: 'ops', members: ['ben', 'cli-user', 'mia'], provisioned: true }]);
        assert.deepEqual(await s.permission('ben', 'x'), rw);
        assert.deepEqual(await s.permission('cli-user', 'cli-topic'), rw);
        await s.provision({ users, grants: [{ user: groupHolder('ops'), topic: 'deploys', permission: rw }], tokens: [], groups: [{ name: 'ops', members: ['mia'] }] });
        assert.deepEqual(await s.groups(), [{ name: 'ops', members: ['cli-user', 'mia'], provisioned: true }], 'ben\'s listed membership and the unlisted group went, the CLI\'s member stayed');
        assert.deepEqual((await s.memberships()).map((m) => `${m.group} ${m.user}`).sort(), ['ops cli-user', 'ops mia']);
        assert.equal(await s.permission('ben', 'deploys'), undefined);
        assert.equal(await s.permission('ben', 'x'), undefined);
        assert.deepEqual(await s.grants(groupHolder('old')), []);
        assert.deepEqual((await s.grants(groupHolder('ops'))).map((g) => g.topic).sort(), ['cli-topic', 'deploys']);
        await assert.rejects(s.removeMember('ops', 'mia'), Provisioned);
        await s.removeMember('ops', 'cli-user');
        await s.provision({ users, grants: [], tokens: [], groups: [] });
        assert.deepEqual(await s.groups(), []);
        assert.equal(await s.permission('cli-user', 'cli-topic'), undefined, 'the CLI\'s grant went with the group');
      });

      it('refuses to change or delete what server.yml provisions', async () => {
        const s = await store();
        const t = newToken();
        await s.provision({ users: [{ name: 'ops', hash: '$1', role: 'user' }], grants: [], tokens: [{ user: 'ops', token: t, label: '' }] });
        // Each made only when awaited: a store that answers later would otherwise see two rejections unhandled meanwhile.
        for (const change of [() => s.changePassword('ops', '$x'), () => s.changeRole('ops', 'admin'), () => s.removeUser('ops')]) {
          await assert.rejects(change, (err: Error) => err instanceof Provisioned && err.message === 'cannot change or delete provisioned user');
        }
        await assert.rejects(s.removeToken('ops', t), (err: Error) => err instanceof Provisioned && err.message === 'cannot change or delete provisioned token');
        await assert.rejects(s.changeToken('ops', t, { label: 'x' }), Provisioned);
        await assert.rejects(s.changePassword('ghost', '$x'), NotFound);
      });
    });

    describeSharedAuthStore(opened);
  });
}
