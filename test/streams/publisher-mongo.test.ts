import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { concatMap, firstValueFrom, take, toArray } from 'rxjs';
import { Publisher, type PublishOptions } from '../../src/streams/publisher.js';
import { ferretDbSkip } from '../support/ferretdb.js';
import { messageNode } from '../support/mongo-nodes.js';
import { message } from '../store/contracts/cache-messages.js';

const live: PublishOptions = { cache: true, deliver: true };

/** Resolves after the current turn's end (its check phase): publishes of a later turn follow. */
const turnEnd = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('publisher on MongoDB (FerretDB)', { skip: ferretDbSkip() }, () => {
  it('publisher — publishes of many turns arriving during a commit\'s round trips join the next commit: fewer commits than turns, every publish once, in arrival order', async () => {
    const node = await messageNode();
    const committed: number[] = [];
    const publisher = new Publisher(node.cache, node.feed, { deliverAt: async () => undefined, cancel: async () => undefined }, {
      batchSize: 0,
      batchTimeoutMs: 0,
      onCommitError: (err) => assert.fail(err as Error),
      onCancelError: (err) => assert.fail(err as Error),
      observer: { committed: (size) => committed.push(size) },
    });
    after(async () => {
      await publisher.drain();
      await node.close();
    });
    const [turns, perTurn] = [40, 16];
    const delivered = firstValueFrom(node.feed.batches$.pipe(concatMap((batch) => batch.events), take(turns * perTurn), toArray()));
    const ids: string[] = [];
    const answers = [];
    for (let turn = 0; turn < turns; turn++) {
      for (let i = 0; i < perTurn; i++) {
        const m = message('grows');
        ids.push(m.id);
        answers.push(publisher.publish(m, live));
      }
      await turnEnd();
    }
    const seqs = (await Promise.all(answers)).map((a) => a.seq as number);
    assert.ok(committed.length < turns, `${committed.length} commits for ${turns} turns (one a turn without one commit in flight): ${committed.join(' ')}`);
    assert.equal(committed.reduce((a, b) => a + b, 0), turns * perTurn);
    assert.ok(seqs.every((seq, i) => i === 0 || seq > (seqs[i - 1] as number)), 'seqs in arrival order');
    assert.deepEqual((await delivered).map((e) => e.head.id), ids, 'delivered once each, in arrival order');
    assert.deepEqual(node.log.errors, []);
  });
});
