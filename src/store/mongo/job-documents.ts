import { toJobId, type JobParameters, type JobsSort, type RemoveJobsOptions } from 'agenda';
import type { Filter, Sort } from 'mongodb';

/** Which claim holds (or last held) a job: the run it was claimed for and the attempt (see job-claims.ts). */
export interface ClaimKey {
  /** The job's `nextRunAt` when claimed, in ms (-1 for none). */
  run: number;
  attempt: number;
}

/** A job as Agenda sees it, with the claim the repository put on it when it locked it. */
export type ClaimedJob = JobParameters & { claim?: ClaimKey };

/**
 * A job document: Agenda's fields as they are (dates as BSON dates, `data` as a
 * subdocument), `lockedAt` always present (null when unlocked) so that "unlocked" is an
 * equality, and `claim`, the key of the claim that locked it last.
 */
export interface JobDocument {
  _id: string;
  name: string;
  type: JobParameters['type'];
  priority: number;
  nextRunAt: Date | null;
  lockedAt: Date | null;
  disabled: boolean;
  claim: ClaimKey | null;
  [field: string]: unknown;
}

type Field = keyof JobParameters;

/** The fields `saveJob` writes; run state (lock, last run, progress) stays as it is. */
export const definitionFields: readonly Field[] = [
  'priority', 'nextRunAt', 'type', 'repeatTimezone', 'repeatInterval', 'data', 'repeatAt', 'disabled', 'fork', 'startDate', 'endDate', 'skipDays',
];
/** `saveJob` of a job that has an id also writes its failure record. */
export const updateFields: readonly Field[] = [...definitionFields, 'failReason', 'failCount', 'failedAt'];
/** The fields `saveJobState` writes, as the job processor runs a job. */
export const stateFields: readonly Field[] = ['lockedAt', 'nextRunAt', 'lastRunAt', 'progress', 'failReason', 'failCount', 'failedAt', 'lastFinishedAt'];

/**
 * `$set` of `fields` from `job`. An undefined field is written as null (it clears the
 * field, as the SQLite repository's NULL does) and read back as undefined by `toJob`.
 */
export function fieldsOf(job: Partial<JobParameters>, fields: readonly Field[]): Record<string, unknown> {
  const set: Record<string, unknown> = {};
  for (const f of fields) set[f] = job[f] ?? null;
  if (set.disabled === null) set.disabled = false;
  return set;
}

/** A new job's document. */
export function newDocument(_id: string, job: Partial<JobParameters>, lastModifiedBy: string | undefined): JobDocument {
  return {
    ...fieldsOf(job, definitionFields),
    _id,
    name: job.name ?? '',
    type: job.type ?? 'normal',
    priority: job.priority ?? 0,
    nextRunAt: job.nextRunAt ?? null,
    disabled: job.disabled === true,
    lockedAt: null,
    claim: null,
    lastModifiedBy: lastModifiedBy ?? null,
    debounceStartedAt: job.debounceStartedAt ?? null,
  };
}

/** A document as Agenda's job: nulls of optional fields become undefined; `nextRunAt` stays null. */
export function toJob(doc: JobDocument): ClaimedJob {
  const job: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(doc)) if (value !== null) job[key] = value;
  return { ...(job as unknown as ClaimedJob), _id: toJobId(doc._id), nextRunAt: doc.nextRunAt, disabled: doc.disabled === true };
}

/** The documents `options` selects; null when it has no criteria (Agenda's rule: then nothing matches). */
export function filterOf(o: RemoveJobsOptions): Filter<JobDocument> | null {
  const filter: Record<string, unknown> = {};
  if (o.id !== undefined) filter._id = String(o.id);
  else if (o.ids?.length) filter._id = { $in: o.ids.map(String) };
  if (o.name !== undefined) filter.name = o.name;
  else if (o.names?.length) filter.name = { $in: o.names };
  else if (o.notNames?.length) filter.name = { $nin: o.notNames };
  if (o.data !== undefined) dataConditions(filter, 'data', o.data);
  return Object.keys(filter).length === 0 ? null : (filter as Filter<JobDocument>);
}

/**
 * `data` matches when every key of the given object (recursively) has the given value, as
 * Agenda's backends do: one dotted path per leaf, so extra keys in the stored data do not
 * matter and a lookup by `data.id` (how the scheduler cancels a delivery) uses its index.
 */
function dataConditions(filter: Record<string, unknown>, path: string, value: unknown): void {
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date)) {
    for (const [key, inner] of Object.entries(value)) dataConditions(filter, `${path}.${key}`, inner);
  } else {
    filter[path] = value;
  }
}

/** Agenda's sort, or its default (the next runs first, then the last runs). */
export function sortOf(sort: JobsSort | undefined): Sort {
  const entries = Object.entries(sort ?? {}).map(([key, dir]) => [key, dir === 'asc' ? 1 : -1] as const);
  return entries.length > 0 ? Object.fromEntries(entries) : { nextRunAt: -1, lastRunAt: -1 };
}

/** A stable text of `value` (keys sorted at every level), for keys built from objects. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner) && !(inner instanceof Date)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}
