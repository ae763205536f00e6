import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { endpointsPerAddress, TooManyWebPushSubscriptions, type WebPushRegistration, type WebPushStore } from '../../../src/store/webpush-store.js';
import { closedAfter, pair, type Open } from './instances.js';

const endpoint = (n: number | string): string => `https://fcm.googleapis.com/fcm/send/${n}`;

/** A browser's registration; `endpoint` and the rest may be overridden. */
const registration = (over: Partial<WebPushRegistration> = {}): WebPushRegistration => ({
  endpoint: endpoint(1),
  auth: 'auth-1',
  p256dh: 'p256dh-1',
  userId: '',
  subscriberIp: '9.9.9.9',
  topics: ['alerts'],
  ...over,
});

/** The endpoints of a list of subscriptions, in its order. */
const endpoints = (subs: readonly { endpoint: string }[]): string[] => subs.map((s) => s.endpoint);

/**
 * The contract of the WebPushStore port (src/store/webpush-store.ts), for every backend:
 * a runner calls this with the backend's factory. Each case opens its own fresh store; the
 * case of two instances opens the second on the first one's location.
 */
export function describeWebPushStore(name: string, open: Open<WebPushStore>): void {
  describe(`web push store contract — ${name}`, () => {
    const opened = closedAfter(open);
    const store = async (): Promise<WebPushStore> => (await opened()).instance;

    it('a subscription is found under each of its topics with its keys, ordered by endpoint', async () => {
      const s = await store();
      await s.upsert(registration({ endpoint: endpoint('b'), topics: ['alerts', 'ops'], userId: 'phil' }), 1000);
      await s.upsert(registration({ endpoint: endpoint('a'), auth: 'auth-a', p256dh: 'key-a', topics: ['alerts'] }), 1000);
      const alerts = await s.forTopic('alerts');
      assert.deepEqual(endpoints(alerts), [endpoint('a'), endpoint('b')]);
      const [a, b] = alerts;
      assert.match(a?.id ?? '', /^wps_[A-Za-z0-9]{10}$/);
      assert.deepEqual({ ...a, id: undefined }, { id: undefined, endpoint: endpoint('a'), auth: 'auth-a', p256dh: 'key-a', userId: '' });
      assert.equal(b?.userId, 'phil');
      assert.deepEqual(endpoints(await s.forTopic('ops')), [endpoint('b')]);
      assert.deepEqual(await s.forTopic('other'), []);
    });

    it('an upsert of a known endpoint replaces its keys and topics and keeps its id', async () => {
      const s = await store();
      await s.upsert(registration({ topics: ['one', 'two'] }), 1000);
      const [before] = await s.forTopic('one');
      await s.upsert(registration({ auth: 'auth-2', p256dh: 'p256dh-2', topics: ['two', 'three'] }), 2000);
      assert.deepEqual(await s.forTopic('one'), []);
      const [after] = await s.forTopic('three');
      assert.deepEqual(after, { ...before, auth: 'auth-2', p256dh: 'p256dh-2' });
      assert.deepEqual(endpoints(await s.forTopic('two')), [endpoint(1)]);
      await s.upsert(registration({ topics: [] }), 3000);
      assert.deepEqual([await s.forTopic('two'), await s.forTopic('three')], [[], []], 'no topics left: pushed nothing');
    });

    it(`an address may hold ${endpointsPerAddress} endpoints; an eleventh is refused and changes nothing, a known one still updates`, async () => {
      const s = await store();
      for (let i = 0; i < endpointsPerAddress; i++) await s.upsert(registration({ endpoint: endpoint(i) }), 1000);
      await assert.rejects(s.upsert(registration({ endpoint: endpoint('new'), topics: ['elsewhere'] }), 1000), TooManyWebPushSubscriptions);
      assert.deepEqual(await s.forTopic('elsewhere'), []);
      await s.upsert(registration({ endpoint: endpoint(3), topics: ['moved'] }), 1000);
      assert.deepEqual(endpoints(await s.forTopic('moved')), [endpoint(3)]);
      await s.upsert(registration({ endpoint: endpoint('other'), subscriberIp: '8.8.8.8', topics: ['elsewhere'] }), 1000);
      assert.deepEqual(endpoints(await s.forTopic('elsewhere')), [endpoint('other')], 'another address is not limited');
    });

    it('expiring answers those not renewed since a time and not yet warned; an upsert renews and clears the warning', async () => {
      const s = await store();
      await s.upsert(registration({ endpoint: endpoint('old') }), 1000);
      await s.upsert(registration({ endpoint: endpoint('new') }), 5000);
      const expiring = await s.expiring(1000);
      assert.deepEqual(endpoints(expiring), [endpoint('old')]);
      await s.markWarned(expiring.map((sub) => sub.id), 6000);
      assert.deepEqual(await s.expiring(5000).then(endpoints), [endpoint('new')], 'the old one was warned');
      await s.upsert(registration({ endpoint: endpoint('old') }), 7000);
      assert.deepEqual(await s.expiring(7000).then(endpoints), [endpoint('new'), endpoint('old')], 'renewed: it may be warned again');
    });

    it('touch renews as an upsert does (age and warning), keeping keys, user and topics; an unknown endpoint is skipped', async () => {
      const s = await store();
      await s.upsert(registration({ endpoint: endpoint('pushed'), userId: 'phil', topics: ['alerts', 'ops'] }), 1000);
      await s.upsert(registration({ endpoint: endpoint('idle') }), 1000);
      const [pushed] = await s.forTopic('ops');
      await s.markWarned((await s.expiring(1000)).map((sub) => sub.id), 2000);
      await s.touch([endpoint('pushed'), endpoint('never-held')], 3000);
      assert.deepEqual(await s.expiring(3000).then(endpoints), [endpoint('pushed')], 'renewed: it may be warned again; the idle one stays warned');
      assert.deepEqual(await s.forTopic('ops'), [pushed], 'id, keys and user unchanged');
      assert.deepEqual(await s.forTopic('alerts').then(endpoints), [endpoint('idle'), endpoint('pushed')]);
      assert.equal(await s.removeExpired(2999), 1, 'only the idle one was not renewed');
      assert.deepEqual(await s.forTopic('alerts').then(endpoints), [endpoint('pushed')]);
      await s.touch([], 4000);
    });

    it('import keeps a subscription as it was kept (id, times, warning, topics); an endpoint held already stays as it is', async () => {
      const s = await store();
      const kept = { id: 'wps_imported01', endpoint: endpoint('kept'), auth: 'auth-k', p256dh: 'key-k', userId: 'phil', subscriberIp: '1.2.3.4', updatedAt: 1000, warnedAt: 1500 };
      assert.equal(await s.import({ ...kept, topics: ['alerts', 'ops'] }), true);
      assert.equal(await s.import({ ...kept, id: 'wps_unwarned01', endpoint: endpoint('fresh'), warnedAt: 0, topics: ['ops'] }), true);
      assert.equal(await s.import({ ...kept, auth: 'other', updatedAt: 9000, warnedAt: 0, topics: ['other'] }), false);
      assert.deepEqual(await s.forTopic('alerts'), [{ id: 'wps_imported01', endpoint: endpoint('kept'), auth: 'auth-k', p256dh: 'key-k', userId: 'phil' }]);
      assert.deepEqual(await s.forTopic('ops').then(endpoints), [endpoint('fresh'), endpoint('kept')]);
      assert.deepEqual(await s.forTopic('other'), [], 'the second import changed nothing');
      assert.deepEqual(await s.expiring(1000).then(endpoints), [endpoint('fresh')], 'the kept one was warned already');
      assert.equal(await s.removeExpired(999), 0, 'updatedAt kept');
      await s.upsert(registration({ endpoint: endpoint('kept'), topics: ['alerts'] }), 2000);
      assert.equal((await s.forTopic('alerts'))[0]?.id, 'wps_imported01', 'a renewal keeps the imported id');
      assert.equal(await s.removeExpired(1000), 1);
    });

    it('removeExpired removes those not renewed since a time, with their topics', async () => {
      const s = await store();
      await s.upsert(registration({ endpoint: endpoint('old'), topics: ['t'] }), 1000);
      await s.upsert(registration({ endpoint: endpoint('new'), topics: ['t'] }), 2000);
      assert.equal(await s.removeExpired(1000), 1);
      assert.deepEqual(endpoints(await s.forTopic('t')), [endpoint('new')]);
      assert.deepEqual(await s.expiring(5000).then(endpoints), [endpoint('new')]);
    });

    it('removeByEndpoint and removeByUser remove theirs; removeByUser of anonymous removes nothing', async () => {
      const s = await store();
      await s.upsert(registration({ endpoint: endpoint('phil-1'), userId: 'phil' }), 1000);
      await s.upsert(registration({ endpoint: endpoint('phil-2'), userId: 'phil' }), 1000);
      await s.upsert(registration({ endpoint: endpoint('anon') }), 1000);
      await s.upsert(registration({ endpoint: endpoint('ben'), userId: 'ben' }), 1000);
      await s.removeByEndpoint(endpoint('ben'));
      await s.removeByUser('');
      assert.deepEqual(await s.forTopic('alerts').then(endpoints), [endpoint('anon'), endpoint('phil-1'), endpoint('phil-2')]);
      await s.removeByUser('phil');
      assert.deepEqual(await s.forTopic('alerts').then(endpoints), [endpoint('anon')]);
    });

    it('two instances on one database see each other\'s changes', async () => {
      const [a, b] = await pair(opened);
      await a.upsert(registration({ topics: ['shared'] }), 1000);
      const [seen] = await b.forTopic('shared');
      assert.equal(seen?.endpoint, endpoint(1));
      await b.upsert(registration({ topics: ['shared'], auth: 'auth-b' }), 2000);
      assert.deepEqual(await a.forTopic('shared'), [{ ...seen, auth: 'auth-b' }], 'same id on either instance');
      await b.removeByEndpoint(endpoint(1));
      assert.deepEqual(await a.forTopic('shared'), []);
    });
  });
}
