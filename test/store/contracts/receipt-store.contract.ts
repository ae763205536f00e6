import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Receipt } from '../../../src/alerts/receipt.js';
import { randomId } from '../../../src/model/message.js';
import type { ReceiptStore } from '../../../src/store/receipt-store.js';
import { closedAfter, pair, type Open } from './instances.js';

/** A receipt of a new alert published at 1000, repeating every 60 s until 4600. */
const receipt = (over: Partial<Receipt> = {}): Receipt => {
  const id = randomId();
  return {
    id, topic: 'alerts',
    message: { id, time: 1000, expires: 44_200, event: 'message', topic: 'alerts', sequence_id: id, message: 'disk full', actions: [{ id: 'ack1234567', action: 'http', label: 'Acknowledge', clear: true, url: `https://ntfy.example/alerts/${id}/ack`, method: 'PUT' }] },
    every: 60, until: 4600, keepUntil: 44_200, callback: undefined,
    escalations: [{ after: 900, via: 'email', to: 'ops@example.com' }, { after: 1800, via: 'call', to: '+15551234567' }],
    publisher: { address: '9.9.9.9', user: '' },
    acknowledgedAt: 0, acknowledgedBy: '', repeats: 0, sent: [],
    ...over,
  };
};

/**
 * The contract of the ReceiptStore port (src/store/receipt-store.ts), for every backend:
 * a runner calls this with the backend's factory. Each case opens its own fresh store; the
 * cases of two instances open the second on the first one's location, as a second node.
 */
export function describeReceiptStore(name: string, open: Open<ReceiptStore>): void {
  describe(`receipt store contract — ${name}`, () => {
    const opened = closedAfter(open);
    const store = async (): Promise<ReceiptStore> => (await opened()).instance;

    it('add then get answers the receipt as it was stored; an unknown id undefined', async () => {
      const s = await store();
      const plain = receipt();
      const withCallback = receipt({ callback: 'https://hooks.example/ack?x=1', escalations: [] });
      await s.add(plain);
      await s.add(withCallback);
      assert.deepEqual(await s.get(plain.id), plain);
      assert.deepEqual(await s.get(withCallback.id), withCallback);
      assert.equal(await s.get('nonexistent01'), undefined);
    });

    it('repeated counts repeat n + 1 once, only after n, and none past until', async () => {
      const s = await store();
      const r = receipt();
      await s.add(r);
      assert.equal((await s.repeated(r.id, 0, 1060))?.repeats, 1);
      assert.equal(await s.repeated(r.id, 0, 1061), undefined, 'the same job again');
      assert.equal(await s.repeated(r.id, 2, 1120), undefined, 'not yet at 2');
      assert.equal((await s.repeated(r.id, 1, 4600))?.repeats, 2, 'at until');
      assert.equal(await s.repeated(r.id, 2, 4601), undefined, 'past until');
      assert.equal(await s.repeated('nonexistent01', 0, 1060), undefined);
      assert.equal((await s.get(r.id))?.repeats, 2);
    });

    it('acknowledge marks it once; after it, no repeat or escalation is counted', async () => {
      const s = await store();
      const r = receipt();
      await s.add(r);
      const first = await s.acknowledge(r.id, 'phil', 1100);
      assert.deepEqual(first, { receipt: { ...r, acknowledgedAt: 1100, acknowledgedBy: 'phil' }, first: true });
      assert.deepEqual(await s.acknowledge(r.id, 'ben', 1200), { receipt: { ...r, acknowledgedAt: 1100, acknowledgedBy: 'phil' }, first: false });
      assert.equal(await s.repeated(r.id, 0, 1160), undefined);
      assert.equal(await s.escalated(r.id, 0, 1900), undefined);
      assert.equal(await s.acknowledge('nonexistent01', 'phil', 1100), undefined);
    });

    it('escalated records each step once, in the order they went out', async () => {
      const s = await store();
      const r = receipt();
      await s.add(r);
      assert.deepEqual((await s.escalated(r.id, 1, 2800))?.sent, [{ step: 1, at: 2800 }]);
      assert.equal(await s.escalated(r.id, 1, 2801), undefined, 'the same step again');
      assert.deepEqual((await s.escalated(r.id, 0, 2802))?.sent, [{ step: 1, at: 2800 }, { step: 0, at: 2802 }]);
      assert.deepEqual((await s.get(r.id))?.sent, [{ step: 1, at: 2800 }, { step: 0, at: 2802 }]);
      assert.equal(await s.escalated('nonexistent01', 0, 1900), undefined);
    });

    it('prune drops the receipts kept until before now, and only those', async () => {
      const s = await store();
      const old = receipt({ keepUntil: 5000 });
      const kept = receipt({ keepUntil: 6000 });
      await s.add(old);
      await s.add(kept);
      assert.equal(await s.prune(5999), 1);
      assert.equal(await s.get(old.id), undefined);
      assert.deepEqual(await s.get(kept.id), kept);
    });

    it('two nodes racing for the same repeat, step or acknowledgement: exactly one wins each', async () => {
      const [a, b] = await pair(opened);
      const r = receipt();
      await a.add(r);
      for (let n = 0; n < 5; n++) {
        const won = await Promise.all([a.repeated(r.id, n, 1000 + 60 * (n + 1)), b.repeated(r.id, n, 1000 + 60 * (n + 1))]);
        assert.equal(won.filter((x) => x !== undefined).length, 1, `repeat ${n + 1}`);
      }
      const steps = await Promise.all([a.escalated(r.id, 0, 1900), b.escalated(r.id, 0, 1900)]);
      assert.equal(steps.filter((x) => x !== undefined).length, 1);
      const acks = await Promise.all([a.acknowledge(r.id, 'phil', 2000), b.acknowledge(r.id, 'ben', 2000)]);
      assert.deepEqual(acks.map((x) => x?.first).sort(), [false, true]);
      assert.deepEqual(await b.get(r.id), await a.get(r.id));
      assert.equal((await a.get(r.id))?.repeats, 5);
    });
  });
}
