import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { JobParameters, JobRepository } from 'agenda';
import { MongoClient } from 'mongodb';
import type { ClaimedJob } from '../../src/store/mongo/job-documents.js';
import { openMongoJobs } from '../../src/store/mongo/job-repository.js';
import { StoreWriteError } from '../../src/store/write-error.js';
import { ferretDbSkip, startFerretDb, type FerretDb } from '../support/ferretdb.js';

let ferret: Promise<FerretDb> | undefined;
const clients: MongoClient[] = [];
after(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await (await ferret)?.stop();
});

/** A repository on a fresh database of the file's one FerretDB. */
async function repository(): Promise<JobRepository> {
  const server = await (ferret ??= startFerretDb());
  const client = await MongoClient.connect(server.url, { maxPoolSize: 10 });
  clients.push(client);
  const backend = openMongoJobs(client.db(server.databaseName('repo')));
  await backend.connect();
  return backend.repository;
}

const at = (offsetMs: number): Date => new Date(Date.now() + offsetMs);
const opts = { lastModifiedBy: 'test' };

function job(name: string, extra: Partial<JobParameters> = {}): JobParameters {
  return { name, priority: 0, nextRunAt: at(-1000), type: 'normal', data: { n: 1 }, ...extra };
}

describe('MongoDB job repository (Agenda JobRepository on FerretDB)', { skip: ferretDbSkip() }, () => {
  it('a job that cannot be saved because the database is unreachable fails as a StoreWriteError (a scheduled publish gets 503)', async () => {
    const client = new MongoClient('mongodb://127.0.0.1:1/?directConnection=true', { serverSelectionTimeoutMS: 200 });
    clients.push(client);
    const repo = openMongoJobs(client.db('unreachable')).repository;
    const err = await repo.saveJob(job('deliver'), opts).then(() => undefined, (e: unknown) => e);
    assert.ok(err instanceof StoreWriteError, String(err));
    assert.equal(err.full, false);
  });

  it('queryJobs filters by state, search and data, sorts and pages; the overview counts states', async () => {
    const repo = await repository();
    await repo.saveJob(job('alpha', { nextRunAt: at(-3000) }), opts);
    await repo.saveJob(job('alpha', { nextRunAt: at(60_000), data: { k: 1 } }), opts);
    await repo.saveJob(job('beta', { nextRunAt: at(-2000), disabled: true }), opts);
    assert.deepEqual((await repo.queryJobs({ state: 'scheduled' })).jobs.map((j) => j.name), ['alpha']);
    assert.equal((await repo.queryJobs({ state: 'paused' })).jobs[0]?.name, 'beta');
    assert.equal((await repo.queryJobs({ search: 'ALP' })).total, 2);
    assert.equal((await repo.queryJobs({ data: { k: 1 } })).total, 1);
    assert.equal((await repo.queryJobs({ includeDisabled: false })).total, 2);
    const sorted = await repo.queryJobs({ sort: { nextRunAt: 'asc' }, skip: 1, limit: 1 });
    assert.deepEqual([sorted.total, sorted.jobs[0]?.name], [3, 'beta']);
    assert.equal(await repo.getQueueSize(), 2);
    const overview = await repo.getJobsOverview();
    assert.deepEqual(overview.map((o) => [o.name, o.total, o.queued, o.scheduled, o.paused]), [['alpha', 2, 1, 1, 0], ['beta', 1, 1, 0, 1]]);
    assert.deepEqual(await repo.getDistinctJobNames(), ['alpha', 'beta']);
  });

  it('unique: insertOnly keeps the existing job; otherwise the match is updated; debounce pushes nextRunAt', async () => {
    const repo = await repository();
    const unique = { 'data.key': 'k1' };
    const a = await repo.saveJob(job('u', { data: { key: 'k1', v: 1 }, unique, uniqueOpts: { insertOnly: true } }), opts);
    const b = await repo.saveJob(job('u', { data: { key: 'k1', v: 2 }, unique, uniqueOpts: { insertOnly: true } }), opts);
    assert.deepEqual([b._id, b.data], [a._id, { key: 'k1', v: 1 }]);
    const c = await repo.saveJob(job('u', { data: { key: 'k1', v: 3 }, unique }), opts);
    assert.deepEqual([c._id, c.data], [a._id, { key: 'k1', v: 3 }]);
    const debounced = (delay: number): Promise<JobParameters> =>
      repo.saveJob(job('d', { data: { key: 'k' }, unique: { 'data.key': 'k' }, uniqueOpts: { debounce: { delay } } }), opts);
    const d1 = await debounced(5000);
    const d2 = await debounced(9000);
    assert.equal(d2._id, d1._id);
    assert.ok((d2.nextRunAt?.getTime() ?? 0) > (d1.nextRunAt?.getTime() ?? 0));
    assert.equal(d2.debounceStartedAt?.getTime(), d1.debounceStartedAt?.getTime());
  });

  it('remove, disable and enable match by id, ids, name, names, notNames and data; no criteria matches nothing', async () => {
    const repo = await repository();
    const a = await repo.saveJob(job('x', { data: { id: 'a', tag: { t: true } } }), opts);
    const b = await repo.saveJob(job('x', { data: { id: 'b', tag: { t: false } } }), opts);
    await repo.saveJob(job('y', { data: { id: 'a' } }), opts);
    assert.equal(await repo.removeJobs({}), 0);
    assert.equal(await repo.disableJobs({ name: 'x', data: { tag: { t: true } } }), 1);
    assert.equal((await repo.getJobById(String(a._id)))?.disabled, true);
    assert.equal(await repo.enableJobs({ ids: [String(a._id), String(b._id)] }), 1, 'the one that was disabled');
    assert.equal(await repo.removeJobs({ notNames: ['x'] }), 1);
    assert.equal(await repo.removeJobs({ names: ['x'], data: { id: 'b' } }), 1);
    assert.equal(await repo.purgeAllJobs(), 1);
  });

  it('lockJob locks only an unlocked job whose nextRunAt still matches; an unlocked job is locked again by the next attempt', async () => {
    const repo = await repository();
    const saved = await repo.saveJob(job('l'), opts);
    assert.equal(await repo.lockJob({ ...saved, nextRunAt: at(99_000) }, opts), undefined);
    const locked = await repo.lockJob(saved, opts);
    assert.deepEqual([Boolean(locked?.lockedAt), (locked as ClaimedJob | undefined)?.claim?.attempt], [true, 0]);
    assert.equal(await repo.lockJob(saved, opts), undefined);
    await repo.unlockJob(locked as JobParameters);
    assert.equal((await repo.getJobById(String(saved._id)))?.lockedAt, undefined);
    assert.equal(((await repo.lockJob(saved, opts)) as ClaimedJob | undefined)?.claim?.attempt, 1);
    await repo.unlockJobs([String(saved._id)]);
    assert.equal((await repo.getJobById(String(saved._id)))?.lockedAt, undefined);
  });

  it('saveJobState writes the run state and refuses a job that is gone', async () => {
    const repo = await repository();
    const saved = await repo.saveJob(job('s'), opts);
    await repo.saveJobState({ ...saved, failCount: 2, failReason: 'boom', progress: 50, nextRunAt: null }, opts);
    const read = await repo.getJobById(String(saved._id));
    assert.deepEqual([read?.failCount, read?.failReason, read?.progress, read?.nextRunAt], [2, 'boom', 50, null]);
    await repo.removeJobs({ id: saved._id });
    await assert.rejects(repo.saveJobState(saved, opts), /cannot be updated/);
  });
});
