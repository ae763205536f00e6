import { Agenda, type AgendaBackend, type Job } from 'agenda';

/** What the scheduler runs; the composition root supplies it. */
export interface ScheduledTasks {
  /** Delivers the scheduled message `id` if it is still waiting (it may have been replaced or deleted). */
  release(id: string): Promise<void>;
  /** The housekeeping of the shared stores (one node at a time; per-node work has its own timer). */
  housekeeping(): Promise<void>;
  /** The alerts' jobs; a scheduler without (an import's, which only saves deliveries) runs none. */
  alerts?: AlertTasks;
}

export interface AlertTasks {
  /** Sends repeat `n + 1` of alert `id` unless it was acknowledged, sent already or is over. */
  repeat(id: string, n: number): Promise<void>;
  /** Sends escalation step `step` of alert `id` unless it was acknowledged or sent already. */
  escalate(id: string, step: number): Promise<void>;
}

/** What the alerts repeated until acknowledged schedule (alerts/alerts.ts). */
export interface AlertJobs {
  repeatAt(id: string, n: number, at: Date): Promise<void>;
  escalateAt(id: string, step: number, at: Date): Promise<void>;
  /** Drops an acknowledged alert's waiting jobs (a job left would find the alert acknowledged and do nothing). */
  cancelAlert(id: string): Promise<void>;
}

export interface SchedulerOptions {
  housekeepingEveryMs: number;
  onError(err: Error): void;
}

const deliverJob = 'deliver scheduled message';
const housekeepingJob = 'housekeeping';
const repeatJob = 'repeat alert';
const escalateJob = 'escalate alert';
/** A job still running at shutdown after this long is left to run again after the restart. */
const drainTimeoutMs = 5000;

/**
 * The timed actions of the shared stores run as Agenda jobs on the store's backend: one
 * job per scheduled message, due at the message's time, and the repeating housekeeping of
 * the shared stores. Jobs live in the store, so they survive a restart; a job whose time
 * passed while the server was down runs as soon as it is back (one the dead server had
 * already locked, once that lock's lifetime passed). Nodes sharing the store
 * share the jobs: each runs on one node (the one that locks it), and a node that dies
 * holding a lock gives it up after the job's lock lifetime.
 */
export class Scheduler implements AlertJobs {
  private readonly agenda: Agenda;

  constructor(backend: AgendaBackend, tasks: ScheduledTasks, private readonly options: SchedulerOptions) {
    // Due jobs are locked one poll ahead and then run on a timer at their exact time, so
    // the poll interval bounds only how fast a restart picks up overdue jobs.
    this.agenda = new Agenda({ backend, processEvery: 1000, removeOnComplete: true, maxConcurrency: 200 });
    // Agenda watches each run with a timer of half the lock lifetime (10 min by default)
    // that holds the event loop open until it fires, even after the job is done. A delivery
    // takes milliseconds; housekeeping finishes well within its own interval. The lock
    // lifetime is also how long the jobs a crashed node locked wait before another node (or
    // the restarted one) takes them over: 2 s for deliveries, one interval for housekeeping.
    // A delivery run twice that way is harmless: the cache releases a message once.
    this.agenda.define(deliverJob, (job: Job<{ id: string }>) => tasks.release(job.attrs.data.id), { concurrency: 200, lockLifetime: 2000 });
    // A repeat or an escalation run twice is harmless too: the receipt store counts each once.
    const alerts = tasks.alerts;
    if (alerts) {
      this.agenda.define(repeatJob, (job: Job<{ id: string; n: number }>) => alerts.repeat(job.attrs.data.id, job.attrs.data.n), { concurrency: 200, lockLifetime: 2000 });
      this.agenda.define(escalateJob, (job: Job<{ id: string; step: number }>) => alerts.escalate(job.attrs.data.id, job.attrs.data.step), { concurrency: 200, lockLifetime: 2000 });
    }
    this.agenda.define(housekeepingJob, () => tasks.housekeeping(), { concurrency: 1, lockLifetime: options.housekeepingEveryMs });
    this.agenda.on('error', options.onError);
  }

  async start(): Promise<void> {
    await this.agenda.start();
    await this.agenda.every(this.options.housekeepingEveryMs, housekeepingJob, undefined, { skipImmediate: true });
  }

  /** Schedules delivery of a stored, waiting message. */
  async deliverAt(id: string, at: Date): Promise<void> {
    await this.agenda.schedule(at, deliverJob, { id });
  }

  /**
   * Schedules delivery of a stored, waiting message unless a job for it exists already:
   * for messages imported from ntfy, whose import may run again after an interrupt.
   */
  async deliverOnceAt(id: string, at: Date): Promise<void> {
    await this.agenda.create(deliverJob, { id }).unique({ 'data.id': id }, { insertOnly: true }).schedule(at).save();
  }

  /** Drops the delivery jobs of messages that were replaced or deleted before they were due. */
  async cancel(ids: readonly string[]): Promise<void> {
    for (const id of ids) await this.agenda.cancel({ name: deliverJob, data: { id } });
  }

  async repeatAt(id: string, n: number, at: Date): Promise<void> {
    await this.agenda.schedule(at, repeatJob, { id, n });
  }

  async escalateAt(id: string, step: number, at: Date): Promise<void> {
    await this.agenda.schedule(at, escalateJob, { id, step });
  }

  async cancelAlert(id: string): Promise<void> {
    for (const name of [repeatJob, escalateJob]) await this.agenda.cancel({ name, data: { id } });
  }

  /** Lets running jobs finish and starts no more; waiting jobs stay in the store for the next start. */
  async stop(): Promise<void> {
    await this.agenda.drain(drainTimeoutMs);
  }
}
