import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { MongoClient, type CommandStartedEvent, type MongoClientOptions } from 'mongodb';
import { newToken } from '../../src/model/access.js';
import type { Token } from '../../src/store/auth-store.js';
import { pollEveryMs } from '../../src/store/mongo/auth/read-cache.js';
import { openMongoAuthStore, type MongoAuthStore } from '../../src/store/mongo/auth/store.js';
import { ferretDbSkip, startFerretDb, type FerretDb } from '../support/ferretdb.js';
import { describeAuthStore } from './contracts/auth-store.contract.js';

let ferret: Promise<FerretDb> | undefined;
after(async () => (await ferret)?.stop());

/** A store on a client of its own, as a node has: the client closes with the store. */
async function node(database?: string, options?: MongoClientOptions): Promise<{ store: MongoAuthStore; client: MongoClient; database: string; close(): Promise<void> }> {
  const server = await (ferret ??= startFerretDb());
  const client = await MongoClient.connect(server.url, options);
  const name = database ?? server.databaseName('auth');
  const store = await openMongoAuthStore(client.db(name));
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
});
