import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { Agenda, type AgendaBackend, type Job, type JobParameters } from 'agenda';
import { MongoClient } from 'mongodb';
import type { ClaimedJob } from '../../src/store/mongo/job-documents.js';
import { openMongoJobs } from '../../src/store/mongo/job-repository.js';
import { ferretDbSkip, startFerretDb, type FerretDb } from '../support/ferretdb.js';
import { at, describeJobBackend, latch } from './contracts/job-backend.contract.js';

let ferret: Promise<FerretDb> | undefined;
const clients: MongoClient[] = [];
const agendas: Agenda[] = [];
after(async () => {
  await Promise.all(agendas.map((a) => a.stop().catch(() => undefined)));
  await Promise.all(clients.map((c) => c.close()));
  await (await ferret)?.stop();
});

/** A node: its own client of the file's one FerretDB, and the jobs backend on database `name` (fresh if not given). */
async function node(name?: string): Promise<{ backend: ReturnType<typeof openMongoJobs>; client: MongoClient; database: string }> {
  const server = await (ferret ??= startFerretDb());
  // FerretDB 1.24 stopped answering (every request pending, PostgreSQL idle) in 3 of 4 runs
  // of the 200-job case with the driver's default 100 connections per node, in none of 5
  // with 10: the nodes here keep to 10.
  const client = await MongoClient.connect(server.url, { maxPoolSize: 10 });
  clients.push(client);
  const database = name ?? server.databaseName('jobs');
  return { backend: openMongoJobs(client.db(database)), client, database };
}

/** An Agenda on `backend` polling every `processEvery` ms, stopped when the file ends. */
function agendaOn(backend: AgendaBackend, processEvery = 100): Agenda {
  const agenda = new Agenda({ backend, processEvery, removeOnComplete: true, maxConcurrency: 200 });
  agendas.push(agenda);
  return agenda;
}


describe('MongoDB job backend (claims by unique insert, on FerretDB)', { skip: ferretDbSkip() }, () => {
  describeJobBackend('MongoDB', async (location) => {
    const { backend, client, database } = await node(location);
    return {
      instance: backend,
      location: database,
      close: async () => {
        await backend.close();
        await client.close();
      },
    };
  });

  it('two nodes with 200 one-off jobs due at once run each exactly once', async (t) => {
    const first = await node();
    const nodes = [first, await node(first.database)];
    const jobs = 200;
    const runs = new Map<string, number[]>();
    const all = latch(jobs);
    const started = nodes.map(({ backend }, i) => {
      const agenda = agendaOn(backend);
      agenda.define('deliver', async (job: Job<{ id: string }>) => {
        runs.set(job.attrs.data.id, [...(runs.get(job.attrs.data.id) ?? []), i]);
        all.hit();
      }, { concurrency: 200, lockLimit: 0, lockLifetime: 10_000 });
      return agenda;
    });
    for (let n = 0; n < jobs; n++) await started[n % 2]?.schedule(at(-1000), 'deliver', { id: `m${n}` });
    const t0 = performance.now();
    await Promise.all(started.map((a) => a.start()));
    await all.done;
    const ms = performance.now() - t0;
    await Promise.all(started.map((a) => a.drain(5000)));
    const byNode = [0, 1].map((i) => [...runs.values()].flat().filter((n) => n === i).length);
    t.diagnostic(`${jobs} jobs through two nodes in ${ms.toFixed(0)} ms (${((jobs * 1000) / ms).toFixed(0)} jobs/s), by node ${byNode.join('/')}`);
    assert.equal(runs.size, jobs, 'every job ran');
    assert.deepEqual([...runs.entries()].filter(([, on]) => on.length !== 1), [], 'none ran twice');
    // Each run's end removes its one-off job; on a loaded machine the last removals may
    // land after drain's 5 s.
    for (let tries = 0; (await first.backend.repository.queryJobs({ name: 'deliver' })).total > 0; tries++) {
      assert.ok(tries < 100, 'one-off jobs still there 10 s after they ran');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });

  it('jobs a node locked before it crashed run once, on the other node, once their lock lifetime passed', async () => {
    const first = await node();
    const lifetime = 1000;
    const jobs = 10;
    // The crashing node polls as Tocsin's scheduler does, locking jobs due before its next poll.
    const crashingBackend = crashable(first.backend, latch(jobs));
    const crashing = agendaOn(crashingBackend, 1000);
    const ran: { node: string; id: string; at: number }[] = [];
    const define = (agenda: Agenda, name: string, done?: () => void): void =>
      agenda.define('deliver', async (job: Job<{ id: string }>) => {
        ran.push({ node: name, id: job.attrs.data.id, at: Date.now() });
        done?.();
      }, { concurrency: 200, lockLifetime: lifetime });
    define(crashing, 'crashed');
    crashing.on('error', () => undefined); // its timers fire after the crash
    for (let n = 0; n < jobs; n++) await crashing.schedule(at(700), 'deliver', { id: `c${n}` });
    await crashing.start();
    await crashingBackend.locked.done;
    const lockedAt = new Map((await first.backend.repository.queryJobs({ name: 'deliver' })).jobs.map((j) => [(j.data as { id: string }).id, j.lockedAt?.getTime() ?? NaN]));
    // Dies holding the locks: nothing is unlocked.
    crashingBackend.crash();
    await first.client.close(true);

    const survivor = agendaOn((await node(first.database)).backend);
    const all = latch(jobs);
    define(survivor, 'survivor', all.hit);
    await survivor.start();
    await all.done;
    await survivor.drain(2000);
    assert.deepEqual(ran.map((r) => r.node).sort(), Array(jobs).fill('survivor'));
    assert.deepEqual(ran.map((r) => r.id).sort(), Array.from({ length: jobs }, (_, n) => `c${n}`).sort());
    const waited = ran.map((r) => r.at - (lockedAt.get(r.id) ?? NaN));
    assert.ok(waited.every((ms) => ms >= lifetime && ms < lifetime + 1000), `taken over ${waited.join(', ')} ms after locked`);
  });

  it('a lock presumed dead is taken over by one node, and its old holder can no longer write the job', async () => {
    const first = await node();
    const [a, b, c] = [first, await node(first.database), await node(first.database)].map((n) => n.backend.repository);
    const saved = await a!.saveJob({ name: 'slow', priority: 0, nextRunAt: at(-10_000), type: 'normal', data: { id: 's1' } }, undefined);
    const held = await a!.getNextJobToRun('slow', at(1000), at(-60_000), at(-5000), undefined);
    assert.equal(held?._id, saved._id);
    // Its lock is 5 s old, past a 2 s lifetime: two nodes race to take it over.
    const takers = await Promise.all([b!, c!].map((r) => r.getNextJobToRun('slow', at(1000), at(-2000), undefined, undefined)));
    const taken = takers.filter((job) => job !== undefined);
    assert.deepEqual(taken.map((job) => [job._id, (job as ClaimedJob).claim?.attempt]), [[saved._id, 1]]);
    await assert.rejects(a!.saveJobState({ ...(held as JobParameters), lastRunAt: new Date() }, undefined), /another node took it over/);
    await b!.saveJobState({ ...(taken[0] as JobParameters), lockedAt: undefined, nextRunAt: null, lastFinishedAt: new Date() }, undefined);
    const done = await a!.getJobById(String(saved._id));
    assert.deepEqual([done?.lockedAt, done?.nextRunAt, done?.lastRunAt], [undefined, null, undefined]);
  });

  it('a repeating job every node saves at once exists once and runs each time on one node', async () => {
    const first = await node();
    const nodes = [first, await node(first.database), await node(first.database)];
    const runs: number[] = [];
    const ticks = latch(5);
    const started = nodes.map(({ backend }) => {
      const agenda = agendaOn(backend);
      agenda.define('housekeeping', async (job) => {
        runs.push((job.attrs as ClaimedJob).claim?.run ?? NaN);
        ticks.hit();
      }, { concurrency: 1, lockLifetime: 250 });
      return agenda;
    });
    await Promise.all(started.map((a) => a.start()));
    await Promise.all(started.map((a) => a.every(250, 'housekeeping', undefined, { skipImmediate: true })));
    const { jobs } = await first.backend.repository.queryJobs({ name: 'housekeeping' });
    assert.deepEqual(jobs.map((j) => [j._id, j.type, j.repeatInterval]), [['single:housekeeping', 'single', 250]]);
    await ticks.done;
    await Promise.all(started.map((a) => a.drain(2000)));
    const gaps = runs.slice(1).map((run, i) => run - (runs[i] ?? 0));
    assert.ok(runs.length >= 5 && gaps.every((gap) => gap >= 250), `runs of the times ${runs.join(', ')}: each once, 250 ms apart`);
  });
});

type Crashable = AgendaBackend & { locked: ReturnType<typeof latch>; crash(): void };

/**
 * `backend` as a node that can crash: `locked` is hit for each job its repository locks,
 * and after `crash()` every call fails at once, as if its process were gone (its Agenda's
 * timers still fire, but reach nothing).
 */
function crashable(backend: AgendaBackend, locked: ReturnType<typeof latch>): Crashable {
  let crashed = false;
  const repository = new Proxy(backend.repository, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key);
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        if (crashed) throw new Error('this node crashed');
        const result: unknown = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        if (key === 'getNextJobToRun' && result) locked.hit();
        return result;
      };
    },
  });
  return { ...backend, repository, locked, crash: () => void (crashed = true) };
}
