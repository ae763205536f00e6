import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import { MongoClient, type CommandStartedEvent, type MongoClientOptions } from 'mongodb';
import { newToken } from '../../src/model/access.js';
import { AlreadyExists, type AuthStore, type Token } from '../../src/store/auth-store.js';
import type { ChangeDoc, UserDoc } from '../../src/store/mongo/auth/collections.js';
import { pollEveryMs } from '../../src/store/polled-read-cache.js';
import { MongoAuthStore } from '../../src/store/mongo/auth/store.js';
import { SqliteAuthStore } from '../../src/store/sqlite/auth-store.js';
import { ferretDbSkip, startFerretDb, type FerretDb } from '../support/ferretdb.js';
import { tempDir } from '../support/server.js';
import { pastStaleReadBound } from '../support/stale-reads.js';
import { describeAuthStore } from './contracts/auth-store.contract.js';

let ferret: Promise<FerretDb> | undefined;
after(async () => (await ferret)?.stop());

/** A store on a client of its own, as a node has: the client closes with the store. */
async function node(database?: string, options?: MongoClientOptions): Promise<{ store: MongoAuthStore; client: MongoClient; database: string; close(): Promise<void> }> {
  const server = await (ferret ??= startFerretDb());
  const client = await MongoClient.connect(server.url, options);
  const name = database ?? server.databaseName('auth');
  const store = await MongoAuthStore.open(client.db(name));
  const close = async (): Promise<void> => {
    await store.close();
    await client.close();
  };
  return { store, client, database: name, close };
}

const token = (): Token => ({ token: newToken(), label: '', expires: 0, lastAccess: 0, lastOrigin: '' });

/**
 * Milliseconds from now until `seen` holds, read every millisecond: the measured delay is
 * what the test is about, so it polls on purpose (reads are remembered, so each costs
 * nothing but the check).
 */
async function delayUntil(seen: () => Promise<boolean>): Promise<number> {
  const start = performance.now();
  while (!(await seen())) await sleep(1);
  return performance.now() - start;
}

function summary(ms: number[]): string {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q: number): string => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(0);
  return `n=${sorted.length} min=${at(0)} p50=${at(0.5)} p90=${at(0.9)} max=${at(1)} ms`;
}

describe('MongoDB auth store (FerretDB)', { skip: ferretDbSkip() }, () => {
  describeAuthStore('mongodb', async (location) => {
    const opened = await node(location);
    return { instance: opened.store, location: opened.database, close: opened.close };
  });

  it('a password change and a token revocation on node A are seen by node B within a second', async (t) => {
    const a = await node();
    const b = await node(a.database);
    after(() => Promise.all([a.close(), b.close()]));
    await a.store.addUser('phil', '$0', 'user');
    const delays = { password: [] as number[], revocation: [] as number[] };
    for (let round = 1; round <= 20; round++) {
      assert.equal((await b.store.user('phil'))?.hash, `$${round - 1}`);
      // A change at a random point of B's poll period, rather than always just after the poll that saw the last one.
      await sleep(Math.random() * pollEveryMs);
      await a.store.changePassword('phil', `$${round}`);
      delays.password.push(await delayUntil(async () => (await b.store.user('phil'))?.hash === `$${round}`));

      const k = token();
      await a.store.addToken('phil', k);
      await delayUntil(async () => (await b.store.userByToken(k.token))?.name === 'phil');
      await sleep(Math.random() * pollEveryMs);
      await a.store.removeToken('phil', k.token);
      delays.revocation.push(await delayUntil(async () => (await b.store.userByToken(k.token)) === undefined));
    }
    t.diagnostic(`password change seen on B after: ${summary(delays.password)}`);
    t.diagnostic(`token revocation seen on B after: ${summary(delays.revocation)}`);
    for (const ms of [...delays.password, ...delays.revocation]) assert.ok(ms < b.store.staleReadBoundMs, `${ms.toFixed(0)} ms`);
  });

  it('1,000 reads of one token ask the database once per document, and nothing more while nothing changes', async (t) => {
    const a = await node();
    const b = await node(a.database, { monitorCommands: true });
    after(() => Promise.all([a.close(), b.close()]));
    const k = token();
    await a.store.addUser('phil', '$0', 'user');
    await a.store.addToken('phil', k);
    const commands: string[] = [];
    b.client.on('commandStarted', (e: CommandStartedEvent) => commands.push(`${e.commandName} ${String(e.command[e.commandName])}`));
    const reads = (): string[] => commands.filter((c) => !c.endsWith(' auth_changes'));

    const burst = await Promise.all(Array.from({ length: 1000 }, () => b.store.userByToken(k.token)));
    assert.ok(burst.every((u) => u?.name === 'phil'));
    assert.deepEqual(reads(), ['find auth_tokens', 'find auth_users'], 'a burst at once: one query each for the token and its user');

    commands.length = 0;
    const started = performance.now();
    for (let i = 0; i < 1000; i++) assert.equal((await b.store.userByToken(k.token))?.name, 'phil');
    const elapsed = performance.now() - started;
    assert.deepEqual(reads(), [], 'one after another, all remembered');
    const polls = commands.length;
    t.diagnostic(`1,000 sequential userByToken: ${elapsed.toFixed(1)} ms, 0 data round trips, ${polls} polls of auth_changes`);
    assert.ok(polls <= Math.ceil(elapsed / 250) + 1, `${polls} polls in ${elapsed.toFixed(0)} ms`);
  });

  it('decides every topic as the SQLite store does: wildcards, case, own before everyone\'s, longest pattern, write before read', async () => {
    const text = (chars: string[], maxLength: number) => fc.array(fc.constantFrom(...chars), { minLength: 1, maxLength }).map((c) => c.join(''));
    const permission = fc.record({ read: fc.boolean(), write: fc.boolean() });
    // At most one pattern per length and write flag for each of phil and everyone: entries
    // of equal rank would tie, which SQLite breaks by its scan order.
    const entries = fc.uniqueArray(fc.record({ user: fc.constantFrom('phil', '*'), topic: text(['a', 'A', 'b', '_', '-', '*'], 4), permission }), {
      selector: (e) => `${e.user}/${e.topic.length}/${e.permission.write}`,
      maxLength: 12,
    });
    const topics = fc.array(text(['a', 'A', 'b', 'B', '_', '-', 'x'], 8), { minLength: 1, maxLength: 25 });
    await fc.assert(fc.asyncProperty(entries, permission, topics, async (given, reserved, asked) => {
      const mongo = await node();
      const sqlite = new SqliteAuthStore(join(tempDir(), 'auth.db'));
      try {
        for (const s of [mongo.store, sqlite]) {
          await s.addUser('phil', '$0', 'user');
          await s.addUser('ben', '$0', 'user');
          for (const e of given) await s.allowAccess(e.user, e.topic, e.permission);
          await s.addReservation('ben', 'ben_Res', reserved);
        }
        const decisions = async (s: AuthStore) => ({
          grants: [await s.grants('phil'), await s.grants('*'), await s.reservations('ben')],
          topics: await Promise.all([...asked, 'ben_res', 'BEN_RES'].map(async (topic) => [
            topic,
            ...(await Promise.all(['phil', 'ben', 'ann'].map((user) => s.permission(user, topic)))),
            await s.othersHaveAccess('phil', topic),
            await s.othersHaveAccess('ben', topic),
            await s.reservationOwner(topic),
          ])),
        });
        assert.deepEqual(await decisions(mongo.store), await decisions(sqlite));
      } finally {
        await mongo.close();
        await sqlite.close();
      }
    }), { numRuns: 25 });
  });

  it('a user removal cut short by a crash: the user is gone for every read, and a new user of the name gets nothing of theirs', async () => {
    const a = await node();
    after(() => a.close());
    const k = token();
    const rw = { read: true, write: true };
    await a.store.addUser('phil', '$0', 'user');
    await a.store.addToken('phil', k);
    await a.store.allowAccess('phil', 'alerts', rw);
    await a.store.addReservation('phil', 'mine', rw);
    await a.client.db(a.database).collection<UserDoc>('auth_users').deleteOne({ _id: 'phil' }); // removeUser's first write, and no more
    const b = await node(a.database); // a node started after the crash
    after(() => b.close());

    const reads = async () => [
      (await b.store.user('phil'))?.hash,
      (await b.store.userByToken(k.token))?.hash,
      await b.store.permission('phil', 'alerts'),
      await b.store.permission('ann', 'mine'),
      await b.store.reservationOwner('mine'),
      await b.store.othersHaveAccess('ann', 'mine'),
      await b.store.grants('*'),
    ];
    assert.deepEqual(await reads(), [undefined, undefined, undefined, undefined, undefined, false, []]);
    await b.store.addUser('phil', '$1', 'user');
    assert.deepEqual(await reads(), ['$1', undefined, undefined, undefined, undefined, false, []], 'the new phil has no token, entry or reservation of the old');
    assert.deepEqual([await b.store.grants('phil'), await b.store.tokens('phil'), await b.store.reservations('phil')], [[], [], []]);
    await b.store.allowAccess('phil', 'alerts', { read: true, write: false });
    assert.deepEqual(await b.store.permission('phil', 'alerts'), { read: true, write: false }, 'the entry written anew is the new phil\'s');
  });

  it('four nodes signing up one name at once: one user, three refusals; their other changes all announced', async () => {
    const first = await node();
    const nodes = [first, ...(await Promise.all([1, 2, 3].map(() => node(first.database))))];
    after(() => Promise.all(nodes.map((n) => n.close())));
    const outcomes = await Promise.allSettled(nodes.map((n, i) => n.store.addUser('phil', `$${i}`, 'user')));
    assert.equal(outcomes.filter((o) => o.status === 'fulfilled').length, 1);
    assert.ok(outcomes.every((o) => o.status === 'fulfilled' || o.reason instanceof AlreadyExists));
    // Each node adds users of its own at once, so their change numbers are claimed concurrently.
    await Promise.all(nodes.map(async (n, i) => {
      for (let j = 0; j < 10; j++) await n.store.addUser(`u${i}-${j}`, '$0', 'user');
    }));
    const changes = await first.client.db(first.database).collection<ChangeDoc>('auth_changes').find().sort({ _id: 1 }).toArray();
    // The four opens, the one sign-up (refusals change nothing) and the 40 additions, each under a number of its own.
    assert.deepEqual(changes.map((c) => c._id), Array.from({ length: 4 + 1 + 40 }, (_, i) => i + 1));
    await pastStaleReadBound(first.store);
    for (const n of nodes) assert.equal(await n.store.userCount(), 41);
  });
});

