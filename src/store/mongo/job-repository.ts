import { randomUUID } from 'node:crypto';
import {
  InMemoryNotificationChannel,
  computeJobState,
  type AgendaBackend,
  type JobId,
  type JobParameters,
  type JobRepository,
  type JobRepositoryOptions,
  type JobsOverview,
  type JobsQueryOptions,
  type JobsResult,
  type RemoveJobsOptions,
} from 'agenda';
import { MongoServerError, type Collection, type Db, type Filter } from 'mongodb';
import { claimIndexes, JobClaims, type ClaimDocument } from './job-claims.js';
import {
  canonicalJson, definitionFields, fieldsOf, filterOf, newDocument, sortOf, stateFields, toJob, updateFields,
  type ClaimedJob, type JobDocument,
} from './job-documents.js';
import { saveUnique } from './job-unique.js';
import { ensureIndexes } from './indexes.js';
import { overviewOf } from '../job-rules.js';
import { writeFailure } from './write-error.js';
import { collection as concerned } from './concerns.js';

/**
 * Agenda's JobRepository on MongoDB, for several nodes sharing one database: every due
 * job runs on exactly one of them. Agenda's own MongoDB backend locks a job with one
 * findOneAndUpdate, atomic on MongoDB but not on FerretDB 1.24 (see docs/architecture.md: two nodes
 * ran the same jobs many times over); this one builds every lock on what both keep
 * atomic, the insert of a unique `_id`.
 *
 * The claim protocol. A run of a job is named by the job's `nextRunAt` when it is locked
 * (its "run"); the right to run it is a claim document `<job>:<run>:<attempt>` in
 * `<collection>.claims` (job-claims.ts). To lock a due job a node inserts the claim of the
 * attempt after the last one it knows of for that run (0 if none): a duplicate-key error
 * means another node won it, and exactly one insert of a key succeeds. The winner then
 * records the claim on the job (`lockedAt`, `claim`) only if the job is still as it read
 * it, else drops the claim: a reader that lags behind another node's whole run cannot act.
 * From then on the claim has one writer, its winner:
 * - it gives the job back unrun (`unlockJob`, e.g. at stop): claim `released`, then the
 *   job unlocked, and the next attempt of that run can be won;
 * - it finishes the run: the job's new state (next run, or none), then claim `done`, which
 *   no later claim of that run gets past: a run that finished is never run again;
 * - it dies: once its claim (or its last `touch`) is older than the job's lock lifetime,
 *   the next attempt is won by one node, as any claim is; the old holder's writes to the
 *   job then match nothing (each names its claim), so it cannot undo the new holder's.
 *   A holder that died after starting the run leaves it to run again (Agenda's rule for
 *   expired locks; a delivery run twice releases its message once): exactly once holds
 *   for runs no node was cut off in the middle of.
 * Every lock is thus one winning insert; no correctness rests on a conditional update or a
 * read-modify-write being atomic, only on unique `_id`s, which MongoDB and FerretDB both
 * enforce. The conditional updates (recording a claim, the holder's writes) are
 * atomic on MongoDB; on FerretDB they narrow races, and a run is still claimed once.
 *
 * Saving: a `single` job (a repeating job every node saves at start) has the `_id`
 * `single:<name>` and a `unique` one `unique:<name>:<criteria>`, so nodes saving it at
 * once insert it once and update it after. Job documents are written by their saver and
 * then by their claim's holder; FerretDB (not MongoDB) can lose one of two concurrent
 * updates of a document (see `JobClaims.redoFinish` for what makes up for it).
 *
 * Claims are removed with their job, and a repeating job's older runs' claims when a run
 * finishes. FerretDB 1.24 has no TTL indexes, so nothing relies on them.
 */
export class MongoJobRepository implements JobRepository {
  /** How many due jobs one read returns, for the lock attempts that follow (see `readDue`). */
  private static readonly batch = 100;
  private readonly claims: JobClaims;
  /** Per job name, the due jobs read and not yet tried. */
  private readonly due = new Map<string, JobDocument[]>();

  constructor(
    private readonly jobs: Collection<JobDocument>,
    private readonly claimDocs: Collection<ClaimDocument>,
  ) {
    this.claims = new JobClaims(claimDocs, jobs);
  }

  async connect(): Promise<void> {
    await ensureIndexes(this.jobs, [{ key: { name: 1, nextRunAt: 1, priority: -1 } }, { key: { lockedAt: 1 } }, { key: { 'data.id': 1 } }]);
    await ensureIndexes(this.claimDocs, claimIndexes);
  }

  async queryJobs(options: JobsQueryOptions = {}): Promise<JobsResult> {
    const { state, includeDisabled = true, sort, skip = 0, limit = 0 } = options;
    const filter: Record<string, unknown> = filterOf(options) ?? {};
    if (options.search) filter.name = { ...nameCondition(filter.name), $regex: escapeRegex(options.search), $options: 'i' };
    if (!includeDisabled) filter.disabled = { $ne: true };
    const now = new Date();
    const docs = await this.jobs.find(filter as Filter<JobDocument>).sort(sortOf(sort)).toArray();
    const jobs = docs
      .map((doc) => {
        const job = toJob(doc);
        return { ...job, _id: job._id as JobId, state: computeJobState(job, now) };
      })
      .filter((job) => !state || (state === 'paused' ? job.disabled === true : job.state === state));
    return { jobs: limit > 0 ? jobs.slice(skip, skip + limit) : jobs.slice(skip), total: jobs.length };
  }

  async getJobsOverview(): Promise<JobsOverview[]> {
    const now = new Date();
    return overviewOf((await this.jobs.find().sort({ name: 1 }).toArray()).map(toJob), now);
  }

  async getDistinctJobNames(): Promise<string[]> {
    return ((await this.jobs.distinct('name')) as string[]).sort();
  }

  async getJobById(id: string): Promise<JobParameters | null> {
    const doc = await this.jobs.findOne({ _id: id });
    return doc && toJob(doc);
  }

  async getQueueSize(): Promise<number> {
    return this.jobs.countDocuments({ nextRunAt: { $lt: new Date() } });
  }

  async removeJobs(options: RemoveJobsOptions): Promise<number> {
    const filter = filterOf(options);
    if (!filter) return 0;
    // By id (a job removed once done) it is deleted at once; else each match by its id, as
    // FerretDB 1.24 reads the whole collection for an `$in`.
    const ids = typeof filter._id === 'string' && Object.keys(filter).length === 1 ? [filter._id] : (await this.jobs.find(filter, { projection: { _id: 1 } }).toArray()).map((doc) => doc._id);
    let removed = 0;
    for (const _id of ids) {
      removed += (await this.jobs.deleteOne({ _id })).deletedCount;
      await this.claims.forget(_id);
    }
    return removed;
  }

  async disableJobs(options: RemoveJobsOptions): Promise<number> {
    return this.setMatching(options, true);
  }

  async enableJobs(options: RemoveJobsOptions): Promise<number> {
    return this.setMatching(options, false);
  }

  async purgeAllJobs(): Promise<number> {
    const removed = await this.jobs.deleteMany({});
    await this.claims.forgetAll();
    return removed.deletedCount;
  }

  /** Agenda's save semantics: update by id, upsert `single` jobs by name, honour `unique` (with debounce), else insert. */
  async saveJob<DATA = unknown>(job: JobParameters<DATA>, options: JobRepositoryOptions | undefined): Promise<JobParameters<DATA>> {
    try {
      return (await this.save(job as JobParameters, options?.lastModifiedBy)) as JobParameters<DATA>;
    } catch (err) {
      throw writeFailure(err); // a scheduled publish is answered 507/503 when its job cannot be saved
    }
  }

  private async save(job: JobParameters, by: string | undefined): Promise<JobParameters> {
    const { unique, uniqueOpts, ...props } = job;
    if (props._id !== undefined) {
      // A job removed meanwhile stays removed; the caller gets its data back unchanged.
      const updated = await this.update(props._id, { ...fieldsOf(props, updateFields), name: props.name, lastModifiedBy: by ?? null });
      return updated ?? job;
    }
    if (props.type === 'single') return this.saveSingle(props, by);
    if (unique) {
      const id = `unique:${props.name}:${canonicalJson(unique)}`;
      return saveUnique(this.uniqueStore, id, props, uniqueOpts, by);
    }
    return this.insert(newDocument(randomUUID(), props, by));
  }

  async saveJobState(job: JobParameters, options: JobRepositoryOptions | undefined): Promise<void> {
    const { claim } = job as ClaimedJob;
    const id = String(job._id);
    // A holder's writes name its claim: once another node took the job over, they match nothing.
    const filter: Filter<JobDocument> = { _id: id, name: job.name, ...(claim && { 'claim.run': claim.run, 'claim.attempt': claim.attempt }) };
    const written = await this.jobs.updateOne(filter, { $set: { ...fieldsOf(job, stateFields), lastModifiedBy: options?.lastModifiedBy ?? null } });
    if (written.matchedCount === 0) {
      throw new Error(`job ${id} (name: ${job.name}) cannot be updated in the database, maybe it does not exist anymore or another node took it over?`);
    }
    // Agenda clears lockedAt in the write that ends a run.
    if (claim && !job.lockedAt) await this.claims.finish(id, claim, job.nextRunAt ?? null);
  }

  async lockJob(job: JobParameters, options: JobRepositoryOptions | undefined): Promise<JobParameters | undefined> {
    if (job._id === undefined) return undefined;
    const doc = await this.jobs.findOne({ _id: String(job._id), name: job.name, lockedAt: null, nextRunAt: job.nextRunAt ?? null, disabled: { $ne: true } });
    // No lock is old enough to take over here: only an unlocked job is locked.
    const locked = doc && (await this.claims.lock(doc, new Date(0), new Date(), options?.lastModifiedBy));
    return locked ? toJob(locked) : undefined;
  }

  async unlockJob(job: JobParameters): Promise<void> {
    // A job whose nextRunAt is null is running its last time; its lock stays until it finishes.
    if (job._id === undefined || job.nextRunAt === null) return;
    await this.unlock([String(job._id)]);
  }

  async unlockJobs(jobIds: (JobId | string)[]): Promise<void> {
    await this.unlock(jobIds.map(String));
  }

  async getNextJobToRun(jobName: string, nextScanAt: Date, lockDeadline: Date, now: Date | undefined, options: JobRepositoryOptions | undefined): Promise<JobParameters | undefined> {
    let read = false;
    for (;;) {
      // Taken from the shared list, so Agenda's concurrent calls for one name try different jobs.
      let doc = this.due.get(jobName)?.shift();
      if (!doc) {
        if (read) return undefined;
        const due = await this.readDue(jobName, nextScanAt, lockDeadline);
        this.due.set(jobName, due);
        read = true;
        doc = due.shift();
        if (!doc) return undefined;
      }
      const locked = await this.claims.lock(doc, lockDeadline, now ?? new Date(), options?.lastModifiedBy);
      if (locked) return toJob(locked);
    }
  }

  /**
   * The jobs to lock, as Agenda's MongoDB backend picks them: due before the next scan and
   * unlocked, or locked so long ago that their holder is presumed dead; earliest first, by
   * priority on ties. One read serves the following calls (`due`): FerretDB 1.24 answers a
   * sorted query by reading every job of the name (20 ms for 200 jobs, 80 ms for 2,000,
   * measured here), and Agenda asks once per job it locks. A job read earlier and changed
   * since is refused by its claim (see `JobClaims.lock`), so the list may lag.
   */
  private async readDue(jobName: string, nextScanAt: Date, lockDeadline: Date): Promise<JobDocument[]> {
    return this.jobs
      .find({ name: jobName, disabled: { $ne: true }, $or: [{ lockedAt: null, nextRunAt: { $lte: nextScanAt } }, { lockedAt: { $lte: lockDeadline } }] })
      .sort({ nextRunAt: 1, priority: -1 })
      .limit(MongoJobRepository.batch)
      .toArray();
  }

  /** Releases this node's locks of `ids` (each job's claim is the one recorded on it). */
  private async unlock(ids: string[]): Promise<void> {
    for (const id of ids) {
      const doc = await this.jobs.findOne({ _id: id });
      if (!doc?.claim || doc.lockedAt === null) continue;
      await this.claims.release(doc._id, doc.claim);
      await this.jobs.updateOne({ _id: doc._id, 'claim.run': doc.claim.run, 'claim.attempt': doc.claim.attempt }, { $set: { lockedAt: null } });
    }
  }

  /** The `single` job of its name: inserted by the first node to save it, updated by the others. */
  private async saveSingle(props: JobParameters, by: string | undefined): Promise<JobParameters> {
    const id = `single:${props.name}`;
    const inserted = await this.insertOnce(newDocument(id, props, by));
    if (inserted) return inserted;
    const existing = await this.jobs.findOne({ _id: id });
    const set: Record<string, unknown> = { ...fieldsOf(props, definitionFields), lastModifiedBy: by ?? null };
    // A repeating job saved again at startup must not lose a run that is already due.
    if (props.nextRunAt && props.nextRunAt <= new Date() && existing?.nextRunAt) delete set.nextRunAt;
    return (await this.update(id, set)) ?? props;
  }

  /** What `saveUnique` needs of the collection. */
  private readonly uniqueStore = {
    find: async (id: string) => {
      const doc = await this.jobs.findOne({ _id: id });
      return doc && toJob(doc);
    },
    insertOnce: (doc: JobDocument) => this.insertOnce(doc),
    update: (id: string, set: Record<string, unknown>) => this.update(id, set),
  };

  private async insert(doc: JobDocument): Promise<JobParameters> {
    await this.jobs.insertOne(doc);
    return toJob(doc);
  }

  /** Inserts `doc` unless its `_id` exists (undefined then). */
  private async insertOnce(doc: JobDocument): Promise<JobParameters | undefined> {
    try {
      return await this.insert(doc);
    } catch (err) {
      if (err instanceof MongoServerError && err.code === 11000) return undefined;
      throw err;
    }
  }

  private async update(id: string, set: Record<string, unknown>): Promise<JobParameters | undefined> {
    const written = await this.jobs.updateOne({ _id: id }, { $set: set });
    if (written.matchedCount === 0) return undefined;
    const doc = await this.jobs.findOne({ _id: id });
    return doc ? toJob(doc) : undefined;
  }

  private async setMatching(options: RemoveJobsOptions, disabled: boolean): Promise<number> {
    const filter = filterOf(options);
    return filter ? (await this.jobs.updateMany(filter, { $set: { disabled } })).modifiedCount : 0;
  }
}

function nameCondition(name: unknown): Record<string, unknown> {
  if (name === undefined) return {};
  return typeof name === 'string' ? { $eq: name } : (name as Record<string, unknown>);
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export interface MongoJobsOptions {
  /** The jobs' collection; its claims go to `<collection>.claims`. */
  collection?: string;
}

/** Agenda's backend on database `db`; the caller owns (and closes) the client. */
export function openMongoJobs(db: Db, options: MongoJobsOptions = {}): AgendaBackend & { close(): Promise<void> } {
  const collection = options.collection ?? 'agenda_jobs';
  const repository = new MongoJobRepository(concerned<JobDocument>(db, collection), concerned<ClaimDocument>(db, `${collection}.claims`));
  const notificationChannel = new InMemoryNotificationChannel();
  return {
    name: 'MongoDB (claims by unique insert)',
    repository,
    // Jobs this node saves due before its next poll run at once; other nodes' by their next poll.
    notificationChannel,
    ownsConnection: false,
    connect: () => repository.connect(),
    disconnect: async () => undefined,
    close: () => notificationChannel.disconnect(),
  };
}
