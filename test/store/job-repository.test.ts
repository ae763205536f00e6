import assert from 'node:assert/strict';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { after, describe, it } from 'node:test';
import type { JobParameters } from 'agenda';
import { openDatabase } from '../../src/store/sqlite/database.js';
import { nextToRun, SqliteJobRepository } from '../../src/store/sqlite/job-repository.js';
import { tempDir } from '../support/server.js';

const opts = { lastModifiedBy: 'test' };
const at = (offsetMs: number): Date => new Date(Date.now() + offsetMs);

async function repository(file = ''): Promise<SqliteJobRepository> {
  const db = openDatabase(file, '');
  after(() => db.close());
  const repo = new SqliteJobRepository(db);
  await repo.connect();
  return repo;
}

function job(name: string, extra: Partial<JobParameters> = {}): JobParameters {
  return { name, priority: 0, nextRunAt: at(-1000), type: 'normal', data: { n: 1 }, ...extra };
}

describe('SQLite job repository (Agenda JobRepository)', () => {
  it('inserts a job and reads it back with dates, data and an id', async () => {
    const repo = await repository();
    const next = at(60_000);
    const saved = await repo.saveJob(job('a', { nextRunAt: next, data: { id: 'x', deep: { k: [1, 2] } }, repeatInterval: '5 minutes' }), opts);
    assert.ok(saved._id);
    const read = await repo.getJobById(saved._id);
    assert.equal(read?.name, 'a');
    assert.equal(read?.nextRunAt?.getTime(), next.getTime());
    assert.deepEqual(read?.data, { id: 'x', deep: { k: [1, 2] } });
    assert.equal(read?.repeatInterval, '5 minutes');
    assert.equal(read?.lastModifiedBy, 'test');
    assert.equal(read?.disabled, false);
    assert.equal(await repo.getJobById('no-such-id'), null);
  });

  it('saveJob with an id updates the definition and keeps the run state; a removed job stays removed', async () => {
    const repo = await repository();
    const saved = await repo.saveJob(job('a'), opts);
    const lastRunAt = at(-500);
    await repo.saveJobState({ ...saved, lockedAt: at(0), lastRunAt }, opts);
    const updated = await repo.saveJob({ ...saved, priority: 10, data: { n: 2 } }, opts);
    assert.equal(updated.priority, 10);
    assert.deepEqual(updated.data, { n: 2 });
    assert.equal(updated.lastRunAt?.getTime(), lastRunAt.getTime());
    assert.ok(updated.lockedAt);
    await repo.removeJobs({ id: saved._id });
    const ghost = await repo.saveJob({ ...saved, priority: 20 }, opts);
    assert.equal(ghost.priority, 20);
    assert.equal(await repo.getJobById(String(saved._id)), null);
  });

  it('single jobs are upserted by name, and a due nextRunAt is not pushed back', async () => {
    const repo = await repository();
    const first = await repo.saveJob(job('every', { type: 'single', nextRunAt: at(-5000), repeatInterval: 1000 }), opts);
    const again = await repo.saveJob(job('every', { type: 'single', nextRunAt: at(0), repeatInterval: 2000 }), opts);
    assert.equal(again._id, first._id);
    assert.equal(again.repeatInterval, 2000);
    assert.equal(again.nextRunAt?.getTime(), first.nextRunAt?.getTime());
    const later = await repo.saveJob(job('every', { type: 'single', nextRunAt: at(60_000) }), opts);
    assert.ok((later.nextRunAt?.getTime() ?? 0) > Date.now());
    assert.equal((await repo.queryJobs({ name: 'every' })).total, 1);
  });

  it('unique: insertOnly keeps the existing job; otherwise the match is updated; debounce pushes nextRunAt', async () => {
    const repo = await repository();
    const unique = { 'data.key': 'k1' };
    const a = await repo.saveJob(job('u', { data: { key: 'k1', v: 1 }, unique, uniqueOpts: { insertOnly: true } }), opts);
    const b = await repo.saveJob(job('u', { data: { key: 'k1', v: 2 }, unique, uniqueOpts: { insertOnly: true } }), opts);
    assert.equal(b._id, a._id);
    assert.deepEqual(b.data, { key: 'k1', v: 1 });
    const c = await repo.saveJob(job('u', { data: { key: 'k1', v: 3 }, unique }), opts);
    assert.equal(c._id, a._id);
    assert.deepEqual(c.data, { key: 'k1', v: 3 });
    const d1 = await repo.saveJob(job('d', { data: { key: 'k' }, unique: { 'data.key': 'k' }, uniqueOpts: { debounce: { delay: 5000 } } }), opts);
    assert.ok(Math.abs((d1.nextRunAt?.getTime() ?? 0) - (Date.now() + 5000)) < 1000);
    assert.ok(d1.debounceStartedAt);
    const d2 = await repo.saveJob(job('d', { data: { key: 'k' }, unique: { 'data.key': 'k' }, uniqueOpts: { debounce: { delay: 9000 } } }), opts);
    assert.equal(d2._id, d1._id);
    assert.ok((d2.nextRunAt?.getTime() ?? 0) > (d1.nextRunAt?.getTime() ?? 0));
    assert.equal(d2.debounceStartedAt?.getTime(), d1.debounceStartedAt?.getTime());
  });

  it('getNextJobToRun locks the earliest due job, by priority on ties, and skips locked, disabled and later ones', async () => {
    const repo = await repository();
    const same = at(-1000);
    const low = await repo.saveJob(job('run', { nextRunAt: same, priority: 0 }), opts);
    const high = await repo.saveJob(job('run', { nextRunAt: same, priority: 10 }), opts);
    await repo.saveJob(job('run', { nextRunAt: at(60_000) }), opts);
    await repo.saveJob(job('run', { nextRunAt: at(-9000), disabled: true }), opts);
    await repo.saveJob(job('other', { nextRunAt: at(-9000) }), opts);
    const scan = (): Promise<JobParameters | undefined> => repo.getNextJobToRun('run', at(5000), at(-600_000), undefined, opts);
    const first = await scan();
    assert.equal(first?._id, high._id);
    assert.ok(first?.lockedAt);
    assert.equal((await scan())?._id, low._id);
    assert.equal(await scan(), undefined);
    // A lock older than the deadline belongs to a dead worker and is taken over.
    assert.equal((await repo.getNextJobToRun('run', at(5000), at(1000), undefined, opts))?._id !== undefined, true);
  });

  it('getNextJobToRun takes a lock past its deadline before a later due job, and respects a young one', async () => {
    const repo = await repository();
    const stale = await repo.saveJob(job('run', { nextRunAt: at(-5000) }), opts);
    const young = await repo.saveJob(job('run', { nextRunAt: at(-6000) }), opts);
    const due = await repo.saveJob(job('run', { nextRunAt: at(-1000) }), opts);
    await repo.lockJob(stale, opts);
    await repo.lockJob(young, opts);
    await repo.saveJobState({ ...stale, lockedAt: at(-60_000) }, opts);
    const scan = (): Promise<JobParameters | undefined> => repo.getNextJobToRun('run', at(1000), at(-30_000), at(0), opts);
    const first = await scan();
    assert.equal(first?._id, stale._id);
    assert.ok((first?.lockedAt?.getTime() ?? 0) > Date.now() - 1000, 'the taken-over lock is renewed');
    assert.equal((await scan())?._id, due._id);
    assert.equal(await scan(), undefined);
  });

  it('getNextJobToRun finds nothing due without taking the write lock (another writer holds it)', async () => {
    const file = join(tempDir(), 'jobs.db');
    const db = openDatabase(file, 'pragma busy_timeout = 0');
    after(() => db.close());
    const repo = new SqliteJobRepository(db);
    await repo.connect();
    const later = await repo.saveJob(job('run', { nextRunAt: at(60_000) }), opts);
    const writer = new Database(file);
    after(() => writer.close());
    writer.exec('BEGIN IMMEDIATE');
    assert.equal(await repo.getNextJobToRun('run', at(1000), at(-30_000), undefined, opts), undefined);
    writer.exec('COMMIT');
    assert.equal((await repo.getNextJobToRun('run', at(61_000), at(-30_000), undefined, opts))?._id, later._id);
  });

  it('getNextJobToRun reads index ranges only, never a scan of the jobs table', async () => {
    const db = openDatabase('', '');
    after(() => db.close());
    await new SqliteJobRepository(db).connect();
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${nextToRun}`).all('run', 0, 'run', 0) as { detail: string }[]).map((step) => step.detail);
    assert.deepEqual(plan.filter((detail) => detail.includes('agenda_jobs')), [
      'SEARCH agenda_jobs USING INDEX idx_agenda_jobs_next (name=? AND next_run_at<?)',
      'SEARCH agenda_jobs USING INDEX idx_agenda_jobs_locked (name=? AND locked_at<?)',
    ]);
  });

  it('lockJob locks only an unlocked job whose nextRunAt still matches; unlock releases', async () => {
    const repo = await repository();
    const saved = await repo.saveJob(job('l'), opts);
    assert.equal(await repo.lockJob({ ...saved, nextRunAt: at(99_000) }, opts), undefined);
    const locked = await repo.lockJob(saved, opts);
    assert.ok(locked?.lockedAt);
    assert.equal(await repo.lockJob(saved, opts), undefined);
    await repo.unlockJob(saved);
    assert.equal((await repo.getJobById(String(saved._id)))?.lockedAt, undefined);
    await repo.lockJob(saved, opts);
    await repo.unlockJobs([saved._id as string]);
    assert.equal((await repo.getJobById(String(saved._id)))?.lockedAt, undefined);
  });

  it('saveJobState writes the run state and refuses a job that is gone', async () => {
    const repo = await repository();
    const saved = await repo.saveJob(job('s'), opts);
    const failedAt = at(0);
    await repo.saveJobState({ ...saved, failCount: 2, failReason: 'boom', failedAt, progress: 50, nextRunAt: null }, opts);
    const read = await repo.getJobById(String(saved._id));
    assert.equal(read?.failCount, 2);
    assert.equal(read?.failReason, 'boom');
    assert.equal(read?.failedAt?.getTime(), failedAt.getTime());
    assert.equal(read?.progress, 50);
    assert.equal(read?.nextRunAt, null);
    await repo.removeJobs({ id: saved._id });
    await assert.rejects(repo.saveJobState(saved, opts), /cannot be updated/);
  });

  it('remove, disable and enable match by id, ids, name, names, notNames and data; no criteria matches nothing', async () => {
    const repo = await repository();
    const a = await repo.saveJob(job('x', { data: { id: 'a', tag: { t: true } } }), opts);
    const b = await repo.saveJob(job('x', { data: { id: 'b', tag: { t: false } } }), opts);
    await repo.saveJob(job('y', { data: { id: 'a' } }), opts);
    assert.equal(await repo.removeJobs({}), 0);
    assert.equal(await repo.disableJobs({ name: 'x', data: { tag: { t: true } } }), 1);
    assert.equal((await repo.getJobById(String(a._id)))?.disabled, true);
    assert.equal(await repo.enableJobs({ ids: [a._id as string, b._id as string] }), 2);
    assert.equal(await repo.removeJobs({ notNames: ['x'] }), 1);
    assert.equal(await repo.removeJobs({ names: ['x'], data: { id: 'b' } }), 1);
    assert.deepEqual(await repo.getDistinctJobNames(), ['x']);
    assert.equal(await repo.purgeAllJobs(), 1);
  });

  it('queryJobs filters by state, search and data, sorts and pages; the overview counts states', async () => {
    const repo = await repository();
    await repo.saveJob(job('alpha', { nextRunAt: at(-3000) }), opts);
    await repo.saveJob(job('alpha', { nextRunAt: at(60_000), data: { k: 1 } }), opts);
    await repo.saveJob(job('beta', { nextRunAt: at(-2000), disabled: true }), opts);
    const scheduled = await repo.queryJobs({ state: 'scheduled' });
    assert.deepEqual(scheduled.jobs.map((j) => j.name), ['alpha']);
    assert.equal((await repo.queryJobs({ state: 'paused' })).jobs[0]?.name, 'beta');
    assert.equal((await repo.queryJobs({ search: 'ALP' })).total, 2);
    assert.equal((await repo.queryJobs({ data: { k: 1 } })).total, 1);
    assert.equal((await repo.queryJobs({ includeDisabled: false })).total, 2);
    const sorted = await repo.queryJobs({ sort: { nextRunAt: 'asc' }, skip: 1, limit: 1 });
    assert.equal(sorted.total, 3);
    assert.equal(sorted.jobs[0]?.name, 'beta');
    assert.equal(await repo.getQueueSize(), 2);
    const overview = await repo.getJobsOverview();
    assert.deepEqual(overview.map((o) => [o.name, o.total, o.queued, o.scheduled, o.paused]), [['alpha', 2, 1, 1, 0], ['beta', 1, 1, 0, 1]]);
  });

  it('connect leaves the locks in the file: another process may be alive and hold them', async () => {
    const file = join(tempDir(), 'jobs.db');
    const holder = await repository(file);
    const saved = await holder.saveJob(job('held'), opts);
    const locked = await holder.lockJob(saved, opts);
    const other = await repository(file);
    assert.equal((await other.getJobById(String(saved._id)))?.lockedAt?.getTime(), locked?.lockedAt?.getTime());
    assert.equal(await other.getNextJobToRun('held', at(5000), at(-60_000), undefined, opts), undefined, 'a young lock is respected');
  });
});
