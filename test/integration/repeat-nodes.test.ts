import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { apiCall } from '../support/account-api.js';
import { LineStream, publish, type Json } from '../support/clients.js';
import { ferretDbSkip, startFerretDb, type FerretDb } from '../support/ferretdb.js';
import { freshDatabase, postgresSkip } from '../support/postgres.js';
import { startTestServer, type TestServer } from '../support/server.js';
import type { ClusterBackend } from './cluster-cases.js';

/**
 * Alerts repeated until acknowledged across two nodes on one database (PostgreSQL, and
 * MongoDB's wire on FerretDB): the repeats are Agenda jobs either node may run, each
 * repeat goes out once, and an acknowledgement taken by the other node stops them.
 */

let ferret: Promise<FerretDb> | undefined;
after(async () => (await ferret)?.stop());

const backends: [string, ClusterBackend][] = [
  ['PostgreSQL', { freshDatabase, skip: postgresSkip() }],
  ['MongoDB (FerretDB)', {
    freshDatabase: async (label) => {
      const server = await (ferret ??= startFerretDb());
      return server.url.replace('/?', `/${server.databaseName(label)}?`);
    },
    skip: ferretDbSkip(),
  }],
];

async function nextEvent(stream: LineStream): Promise<Json> {
  for (;;) {
    const event = await stream.nextJson(10_000);
    if (event.event !== 'keepalive') return event;
  }
}

const cached = async (s: TestServer, topic: string): Promise<Json[]> => {
  const text = await (await fetch(`${s.url}/${topic}/json?poll=1`)).text();
  return text === '' ? [] : text.trimEnd().split('\n').map((line) => JSON.parse(line) as Json);
};

for (const [name, backend] of backends) {
  describe(`repeat — two nodes on ${name}`, { skip: backend.skip }, () => {
    it('node 1 takes the publish, the repeats go out once each, node 2 takes the acknowledgement and they stop on both', async () => {
      const settings = { 'database-url': await backend.freshDatabase('repeat_nodes'), 'base-url': 'http://tocsin.test', 'repeat-min-interval': '1s' };
      const one = await startTestServer(settings);
      after(() => one.server.close());
      const two = await startTestServer(settings);
      after(() => two.server.close());
      const onTwo = new LineStream(`${two.url}/pager/json`);
      after(() => onTwo.close());
      assert.equal((await onTwo.nextJson()).event, 'open');

      const { json: original } = await publish(`${one.url}/pager`, 'on fire', { Repeat: '1s', 'Repeat-Until': '1m' });
      const id = original.id as string;
      assert.equal((await nextEvent(onTwo)).id, id);
      const repeats: Json[] = [];
      while (repeats.length < 3) repeats.push(await nextEvent(onTwo));
      assert.deepEqual(repeats.map((r) => [r.event, r.sequence_id, r.message]), Array(3).fill(['message', id, 'on fire']));

      const [status, acked] = await apiCall(two.url, 'PUT', `/pager/${id}/ack`);
      assert.deepEqual([status, acked.acknowledged], [200, true]);
      let clear = await nextEvent(onTwo);
      while (clear.event === 'message') clear = await nextEvent(onTwo); // a repeat already under way
      assert.deepEqual([clear.event, clear.sequence_id], ['message_clear', id]);
      assert.deepEqual((await apiCall(one.url, 'GET', `/v1/receipts/${id}`))[1], acked, 'node 1 reads the same receipt');

      await new Promise((resolve) => setTimeout(resolve, 2500)); // two intervals: none comes after
      const messages = (await cached(one, 'pager')).filter((m) => m.event === 'message');
      assert.equal(messages.length, 1 + (acked.repeats as number), 'the original and each counted repeat, once');
      assert.equal(new Set(messages.map((m) => m.id)).size, messages.length);
      assert.deepEqual((await cached(two, 'pager')).map((m) => m.id), (await cached(one, 'pager')).map((m) => m.id));
    });
  });
}
