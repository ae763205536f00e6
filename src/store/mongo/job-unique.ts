import type { JobParameters, UniqueOpts } from 'agenda';
import { debouncedRun } from '../job-rules.js';
import { definitionFields, fieldsOf, newDocument, type JobDocument } from './job-documents.js';

/** What saving a `unique` job needs of the jobs' collection. */
export interface UniqueJobs {
  find(id: string): Promise<JobParameters | null>;
  /** Inserts `doc` unless its `_id` exists (undefined then). */
  insertOnce(doc: JobDocument): Promise<JobParameters | undefined>;
  update(id: string, set: Record<string, unknown>): Promise<JobParameters | undefined>;
}

/**
 * Agenda's `unique` save: the job whose `_id` is `id` (built from its name and unique
 * criteria, so concurrent saves insert it once) is kept with `insertOnly`, else updated;
 * `debounce` moves its nextRunAt as Agenda's backends do (trailing: `delay` after the last
 * save, but at most `maxWait` after the first; leading: the first save's time stays).
 */
export async function saveUnique(jobs: UniqueJobs, id: string, props: JobParameters, uniqueOpts: UniqueOpts | undefined, by: string | undefined): Promise<JobParameters> {
  const existing = await jobs.find(id);
  const debounce = uniqueOpts?.debounce;
  if (existing && uniqueOpts?.insertOnly && !debounce) return existing;
  const { nextRunAt, debounceStartedAt } = debounce
    ? debouncedRun(existing ?? undefined, props.nextRunAt, debounce, new Date())
    : { nextRunAt: props.nextRunAt, debounceStartedAt: undefined };
  if (!existing) {
    const inserted = await jobs.insertOnce(newDocument(id, { ...props, nextRunAt, debounceStartedAt }, by));
    // Another node inserted it first: save onto theirs.
    return inserted ?? saveUnique(jobs, id, props, uniqueOpts, by);
  }
  const set = { ...fieldsOf({ ...props, nextRunAt }, definitionFields), debounceStartedAt: debounceStartedAt ?? null, lastModifiedBy: by ?? null };
  return (await jobs.update(id, set)) ?? props;
}
