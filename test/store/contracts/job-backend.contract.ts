import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { Agenda, type AgendaBackend, type Job } from 'agenda';
import { Scheduler } from '../../../src/streams/scheduler.js';
import { closedAfter, type Open } from './instances.js';

/** Resolves when `count` calls of the returned `hit` were made. */
export function latch(count: number): { hit: () => void; done: Promise<void> } {
  let left = count;
  let open!: () => void;
  const done = new Promise<void>((resolve) => (open = resolve));
  return { hit: () => void (--left === 0 && open()), done };
}

export const at = (offsetMs: number): Date => new Date(Date.now() + offsetMs);

/**
 * The contract of Agenda's backend (`AgendaBackend`) as Tocsin uses it (streams/scheduler.ts:
 * one-off jobs keyed by `data.id`, cancelled by it, removed once done; one repeating job
 * saved by every node at start), for every backend: a runner calls this with the backend's
 * factory. Agenda runs with a fast poll here; the cases of several instances open them on
 * one location, as the nodes of a deployment share one store.
 */
export function describeJobBackend(name: string, open: Open<AgendaBackend>): void {
  describe(`job backend contract — ${name}`, () => {
    // Registered before closedAfter's hook, so every Agenda stops before its backend closes.
    const running: { stop(): Promise<unknown> }[] = [];
    after(() => Promise.all(running.map((r) => r.stop())));
    const opened = closedAfter(open);

    /** An Agenda polling every 100 ms on `backend`, stopped when the suite ends. */
    const agendaOn = (backend: AgendaBackend): Agenda => {
      const agenda = new Agenda({ backend, processEvery: 100, removeOnComplete: true, maxConcurrency: 200 });
      running.push({ stop: () => agenda.drain(2000) });
      return agenda;
    };

    it('a job runs at its time, once, and is gone once done', async () => {
      const { instance: backend } = await opened();
      const agenda = agendaOn(backend);
      const ran: { data: unknown; lateMs: number }[] = [];
      const run = latch(1);
      const dueAt = at(300);
      agenda.define('ping', async (job) => {
        ran.push({ data: job.attrs.data, lateMs: Date.now() - dueAt.getTime() });
        run.hit();
      }, { lockLifetime: 1000 });
      await agenda.start();
      await agenda.schedule(dueAt, 'ping', { id: 'p1' });
      await run.done;
      await agenda.drain(2000);
      assert.deepEqual(ran.map((r) => r.data), [{ id: 'p1' }]);
      assert.ok((ran[0]?.lateMs ?? -1) >= 0 && (ran[0]?.lateMs ?? 1e9) < 150, `late by ${ran[0]?.lateMs} ms`);
      assert.equal((await backend.repository.queryJobs({ name: 'ping' })).total, 0);
    });

    it('cancelling by data id removes that job only', async () => {
      const { instance: backend } = await opened();
      const agenda = agendaOn(backend);
      await agenda.schedule(at(60_000), 'deliver', { id: 'keep' });
      await agenda.schedule(at(60_000), 'deliver', { id: 'drop' });
      assert.equal(await agenda.cancel({ name: 'deliver', data: { id: 'drop' } }), 1);
      assert.deepEqual((await backend.repository.queryJobs({ name: 'deliver' })).jobs.map((j) => j.data), [{ id: 'keep' }]);
    });

    it('a job saved before closing runs after a reopen', async () => {
      const first = await opened();
      await agendaOn(first.instance).schedule(at(200), 'later', { id: 'kept' });
      await first.close();
      const agenda = agendaOn((await opened(first.location)).instance);
      const run = latch(1);
      const data: unknown[] = [];
      // A short lock lifetime: Agenda watches a run with a timer of half of it (5 min by
      // default) that holds the test process open after the run.
      agenda.define('later', async (job) => {
        data.push(job.attrs.data);
        run.hit();
      }, { lockLifetime: 1000 });
      await agenda.start();
      await run.done;
      assert.deepEqual(data, [{ id: 'kept' }]);
    });

    describe('several instances on one location', () => {
      it('a repeating job every node saves at start stays one job', async () => {
        const first = await opened();
        const [a, b] = [agendaOn(first.instance), agendaOn((await opened(first.location)).instance)];
        await a.every(60_000, 'housekeeping', undefined, { skipImmediate: true });
        await b.every(60_000, 'housekeeping', undefined, { skipImmediate: true });
        const { jobs } = await first.instance.repository.queryJobs({ name: 'housekeeping' });
        // The interval as Agenda reads it: @agendajs/postgres-backend keeps it as text, and
        // Agenda takes a numeric string as milliseconds (utils/nextRunAt.js).
        assert.deepEqual(jobs.map((j) => [j.type, Number(j.repeatInterval)]), [['single', 60_000]]);
      });

      it('two instances locking at once run each due job exactly once', async () => {
        const first = await opened();
        const backends = [first.instance, (await opened(first.location)).instance];
        const jobs = 60;
        const runs: string[][] = [[], []];
        const all = latch(jobs);
        const agendas = backends.map((backend, i) => {
          const agenda = agendaOn(backend);
          agenda.define('deliver', async (job: Job<{ id: string }>) => {
            runs[i]?.push(job.attrs.data.id);
            all.hit();
          }, { concurrency: 200, lockLifetime: 5000 });
          return agenda;
        });
        for (let n = 0; n < jobs; n++) await agendas[n % 2]?.schedule(at(-1000), 'deliver', { id: `m${n}` });
        await Promise.all(agendas.map((a) => a.start()));
        await all.done;
        await Promise.all(agendas.map((a) => a.drain(2000)));
        const ids = [...(runs[0] ?? []), ...(runs[1] ?? [])];
        assert.equal(new Set(ids).size, jobs, 'every job ran');
        assert.equal(ids.length, jobs, `none twice (first ran ${runs[0]?.length}, second ${runs[1]?.length})`);
        assert.equal((await first.instance.repository.queryJobs({ name: 'deliver' })).total, 0);
      });

      it('Tocsin\'s scheduler on two nodes releases each scheduled message once, whichever node scheduled it', async () => {
        const first = await opened();
        const backends = [first.instance, (await opened(first.location)).instance];
        const released: string[] = [];
        const errors: Error[] = [];
        const all = latch(20);
        const schedulers = backends.map(
          (backend) =>
            new Scheduler(backend, { release: async (id) => void (released.push(id), all.hit()), housekeeping: async () => undefined }, {
              housekeepingEveryMs: 60_000,
              onError: (err) => errors.push(err),
            }),
        );
        running.push(...schedulers);
        await Promise.all(schedulers.map((s) => s.start()));
        const dueAt = at(500);
        for (let n = 0; n < 20; n++) await schedulers[n % 2]?.deliverAt(`m${n}`, dueAt);
        await all.done;
        await Promise.all(schedulers.map((s) => s.stop()));
        assert.deepEqual([[...released].sort(), errors], [Array.from({ length: 20 }, (_, n) => `m${n}`).sort(), []]);
      });

      it('a lock held by an instance that died is taken over once older than the job\'s lock lifetime, not before', async () => {
        const first = await opened();
        const dead = first.instance;
        await dead.connect();
        const saved = await dead.repository.saveJob({ name: 'orphan', priority: 0, nextRunAt: at(-1000), type: 'normal', data: { id: 'o1' } }, undefined);
        const locked = await dead.repository.getNextJobToRun('orphan', at(1000), at(-60_000), undefined, undefined);
        assert.equal(locked?._id, saved._id, 'locked by the instance that then dies');
        const lockedAt = locked?.lockedAt?.getTime() ?? NaN;
        await first.close(); // never unlocked
        const agenda = agendaOn((await opened(first.location)).instance);
        const runs: number[] = [];
        const run = latch(1);
        agenda.define('orphan', async () => {
          runs.push(Date.now());
          run.hit();
        }, { lockLifetime: 600 });
        await agenda.start();
        await run.done;
        await agenda.drain(2000);
        assert.equal(runs.length, 1);
        const waited = (runs[0] ?? 0) - lockedAt;
        assert.ok(waited >= 600 && waited < 1500, `taken over ${waited} ms after it was locked`);
      });
    });
  });
}
