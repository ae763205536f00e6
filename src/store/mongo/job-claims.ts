import { MongoServerError, type Collection } from 'mongodb';
import type { ClaimKey, JobDocument } from './job-documents.js';

/**
 * A claim: the right to run one run of one job, won by inserting its unique `_id`
 * `<job>:<run>:<attempt>`. Only its winner writes it afterwards (`held` → `released` when
 * it gives the job back unrun, `held` → `done` when the run finished, with the job's next
 * run time), so no claim document ever has two writers. See job-repository.ts for the
 * protocol as a whole.
 */
export interface ClaimDocument {
  _id: string;
  job: string;
  run: number;
  attempt: number;
  /** When it was won (a lock's age, until the holder's `lockedAt` on the job says more). */
  at: Date;
  by: string | null;
  state: 'held' | 'released' | 'done';
  /** Once done: the job's `nextRunAt` after the run. */
  next?: Date | null;
}

const duplicateKey = 11000;

export const claimIndexes = [{ key: { job: 1, run: 1 } }];

export function claimId(job: string, key: ClaimKey): string {
  return `${job}:${key.run}:${key.attempt}`;
}

/** The run a claim of `job` is for: the one its holder claimed while it is locked, else its next one. */
function runOf(job: JobDocument): number {
  if (job.lockedAt !== null && job.claim) return job.claim.run;
  return job.nextRunAt?.getTime() ?? -1;
}

function sameKey(a: ClaimKey | null, b: ClaimDocument): boolean {
  return a !== null && a.run === b.run && a.attempt === b.attempt;
}

export class JobClaims {
  constructor(
    private readonly claims: Collection<ClaimDocument>,
    private readonly jobs: Collection<JobDocument>,
  ) {}

  /**
   * Locks `job` (the document as this node read it, due or with an expired lock) for this
   * node, or returns undefined when another node holds it, won it first, or it changed
   * since it was read. `lockDeadline`: a lock taken (or touched) before it is presumed dead;
   * `now`: the lock's time.
   */
  async lock(job: JobDocument, lockDeadline: Date, now: Date, by: string | undefined): Promise<JobDocument | undefined> {
    const run = runOf(job);
    // The claim the document names, if it is for this run: the next attempt follows it.
    let prior = job.claim?.run === run ? await this.claims.findOne({ _id: claimId(job._id, job.claim) }) : null;
    let attempt = job.claim?.run === run ? job.claim.attempt + 1 : 0;
    for (;;) {
      if (prior?.state === 'done') {
        await this.redoFinish(job, prior);
        return undefined;
      }
      if (prior?.state === 'held' && !expired(prior, job, lockDeadline)) return undefined;
      const key = { run, attempt };
      try {
        await this.claims.insertOne({ _id: claimId(job._id, key), job: job._id, run, attempt, at: now, by: by ?? null, state: 'held' });
      } catch (err) {
        if (!(err instanceof MongoServerError && err.code === duplicateKey)) throw err;
        // Won by another node: decide again on what that claim says.
        prior = await this.claims.findOne({ _id: claimId(job._id, key) });
        if (!prior) return undefined; // removed with its job meanwhile
        attempt++;
        continue;
      }
      return this.record(job, key, now, by);
    }
  }

  /**
   * Puts the won claim on the job, only if the job is still as it was read: a node that
   * read it before another node's run (and after that run's claims were pruned, or the job
   * removed with its claims) wins an insert that no longer guards anything, and must not
   * run the job. A claim recorded nowhere is deleted again (it was never acted on).
   */
  private async record(job: JobDocument, key: ClaimKey, at: Date, by: string | undefined): Promise<JobDocument | undefined> {
    const set = { lockedAt: at, claim: key, lastModifiedBy: by ?? null };
    const recorded = await this.jobs.updateOne({ _id: job._id, nextRunAt: job.nextRunAt, lockedAt: job.lockedAt }, { $set: set });
    if (recorded.matchedCount === 1) return { ...job, ...set };
    await this.claims.deleteOne({ _id: claimId(job._id, key) });
    return undefined;
  }

  /** The holder gives the job back unrun: the next claim of this run may be won. */
  async release(job: string, key: ClaimKey): Promise<void> {
    await this.claims.updateOne({ _id: claimId(job, key), state: 'held' }, { $set: { state: 'released' } });
  }

  /**
   * The holder finished the run (its job document already says so). Claims of the job's
   * earlier runs are dropped: `record` keeps a stale reader that wins one of them from acting.
   */
  async finish(job: string, key: ClaimKey, next: Date | null): Promise<void> {
    await this.claims.updateOne({ _id: claimId(job, key) }, { $set: { state: 'done', next } });
    if (next !== null) await this.claims.deleteMany({ job, run: { $lt: key.run } });
  }

  /** Drops the claims of a removed job. */
  async forget(job: string): Promise<void> {
    await this.claims.deleteMany({ job });
  }

  async forgetAll(): Promise<void> {
    await this.claims.deleteMany({});
  }

  /**
   * A finished run whose job document still shows it pending. On MongoDB that is a read
   * from before the holder's last write, and the conditional write below matches nothing.
   * On FerretDB 1.24 an update is a read-modify-write of the whole document, so a
   * concurrent update (another node re-saving a repeating job at start) can undo the
   * holder's last write: this writes it again, so the job is not stuck on a done run.
   */
  private async redoFinish(job: JobDocument, done: ClaimDocument): Promise<void> {
    await this.jobs.updateOne(
      { _id: job._id, nextRunAt: job.nextRunAt, lockedAt: job.lockedAt },
      { $set: { nextRunAt: done.next ?? null, lockedAt: null, claim: { run: done.run, attempt: done.attempt } } },
    );
  }
}

/**
 * Whether a held claim's holder is presumed dead: won before the deadline and, if the job
 * records it as its lock, not touched since (Agenda's `touch` moves `lockedAt`).
 */
function expired(claim: ClaimDocument, job: JobDocument, lockDeadline: Date): boolean {
  const lastSign = sameKey(job.claim, claim) && job.lockedAt !== null ? job.lockedAt : claim.at;
  return lastSign <= lockDeadline;
}
