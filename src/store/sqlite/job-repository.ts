import { randomUUID } from 'node:crypto';
import {
  computeJobState,
  datefields,
  toJobId,
  type JobId,
  type JobParameters,
  type JobRepository,
  type JobRepositoryOptions,
  type JobsOverview,
  type JobsQueryOptions,
  type JobsResult,
  type JobsSort,
  type RemoveJobsOptions,
} from 'agenda';
import type Database from 'better-sqlite3';
import { debouncedRun, overviewOf } from '../job-rules.js';
import { Statements } from './statements.js';
import { writeFailure } from './write-error.js';

/**
 * Agenda's JobRepository on the embedded SQLite database. The columns are the fields the
 * scheduler selects, locks and sorts on; every other job field travels in `attrs` (JSON).
 * Several processes may use one file (the nodes of a deployment), so every step is atomic
 * across them: a lock is taken by one UPDATE, and a step that reads before it writes is an
 * IMMEDIATE transaction. Locks are recovered as Agenda's MongoDB backend recovers them:
 * `connect` leaves every lock as it is, since another live process may hold it, and
 * `getNextJobToRun` takes over a lock older than its job's lock lifetime, whose holder is
 * presumed dead. A crashed process's due jobs therefore run one lock lifetime after it
 * locked them (the scheduler gives deliveries a short one).
 */
const createSchema = `
  CREATE TABLE IF NOT EXISTS agenda_jobs (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    type TEXT NOT NULL,
    priority INTEGER NOT NULL,
    next_run_at INTEGER,
    locked_at INTEGER,
    disabled INTEGER NOT NULL DEFAULT 0,
    last_modified_by TEXT,
    data TEXT,
    attrs TEXT NOT NULL
  );
  CREATE UNIQUE INDEX IF NOT EXISTS idx_agenda_jobs_single ON agenda_jobs (name) WHERE type = 'single';
  CREATE INDEX IF NOT EXISTS idx_agenda_jobs_next ON agenda_jobs (name, next_run_at, priority);
  CREATE INDEX IF NOT EXISTS idx_agenda_jobs_locked ON agenda_jobs (name, locked_at) WHERE locked_at IS NOT NULL;
  CREATE INDEX IF NOT EXISTS idx_agenda_jobs_data_id ON agenda_jobs (json_extract(data, '$."id"'));
`;

/**
 * The job of a name to lock next: due before the next scan and unlocked, or locked so long
 * ago that its holder is presumed dead; the earliest first, by priority on ties. Each half
 * is one index range (the due ones of idx_agenda_jobs_next, the few locks of
 * idx_agenda_jobs_locked), not a scan of all the jobs of the name as one OR would be
 * (exported for the test of its query plan).
 */
export const nextToRun = `
  SELECT id, next_run_at, locked_at FROM (
    SELECT * FROM (
      SELECT id, next_run_at, priority, locked_at FROM agenda_jobs
      WHERE name = ? AND disabled = 0 AND locked_at IS NULL AND next_run_at <= ?
      ORDER BY next_run_at, priority DESC LIMIT 1)
    UNION ALL
    SELECT * FROM (
      SELECT id, next_run_at, priority, locked_at FROM agenda_jobs
      WHERE name = ? AND disabled = 0 AND locked_at <= ?
      ORDER BY next_run_at ASC NULLS LAST, priority DESC LIMIT 1)
  ) ORDER BY next_run_at ASC NULLS LAST, priority DESC LIMIT 1`;

interface Row {
  id: string;
  name: string;
  type: string;
  priority: number;
  next_run_at: number | null;
  locked_at: number | null;
  disabled: number;
  last_modified_by: string | null;
  data: string | null;
  attrs: string;
}

type Job = JobParameters;
type Field = keyof Job;

/** The fields `saveJob` writes; run state (lock, last run, progress) stays as it is. */
const definitionFields: readonly Field[] = [
  'priority', 'nextRunAt', 'type', 'repeatTimezone', 'repeatInterval', 'data', 'repeatAt', 'disabled', 'fork', 'startDate', 'endDate', 'skipDays',
];
/** `saveJob` of a job that has an id also writes its failure record. */
const updateFields: readonly Field[] = [...definitionFields, 'failReason', 'failCount', 'failedAt'];
/** The fields `saveJobState` writes, as the job processor runs a job. */
const stateFields: readonly Field[] = ['lockedAt', 'nextRunAt', 'lastRunAt', 'progress', 'failReason', 'failCount', 'failedAt', 'lastFinishedAt'];

/** Job fields with a column of their own; the rest live in `attrs`. */
const columnOf: Partial<Record<Field, keyof Row>> = {
  _id: 'id', name: 'name', type: 'type', priority: 'priority', nextRunAt: 'next_run_at', lockedAt: 'locked_at',
  disabled: 'disabled', lastModifiedBy: 'last_modified_by',
};
const isDateField = new Set<string>(datefields);

const sortColumns: Record<keyof JobsSort, string> = {
  nextRunAt: 'next_run_at', lastRunAt: "json_extract(attrs, '$.lastRunAt')", lastFinishedAt: "json_extract(attrs, '$.lastFinishedAt')",
  priority: 'priority', name: 'name', data: 'data',
};

export class SqliteJobRepository implements JobRepository {

  private readonly statements: Statements;

  constructor(private readonly db: Database.Database) {
    this.statements = new Statements(db);
  }

  private sql(text: string): Database.Statement {
    return this.statements.get(text);
  }

  async connect(): Promise<void> {
    this.db.exec(createSchema);
  }

  async queryJobs(options: JobsQueryOptions = {}): Promise<JobsResult> {
    const { state, includeDisabled = true, sort, skip = 0, limit = 0 } = options;
    const where = filterOf(options);
    if (options.search) where.push('instr(lower(name), lower(?)) > 0', options.search);
    if (!includeDisabled) where.push('disabled = 0');
    const now = new Date();
    const jobs = this.select(where, orderBy(sort))
      .map((job) => ({ ...job, _id: job._id as JobId, state: computeJobState(job, now) }))
      .filter((job) => !state || (state === 'paused' ? job.disabled === true : job.state === state));
    return { jobs: limit > 0 ? jobs.slice(skip, skip + limit) : jobs.slice(skip), total: jobs.length };
  }

  async getJobsOverview(): Promise<JobsOverview[]> {
    return overviewOf(this.select(new Where(), 'name'), new Date());
  }

  async getDistinctJobNames(): Promise<string[]> {
    return this.sql('SELECT DISTINCT name FROM agenda_jobs ORDER BY name').pluck().all() as string[];
  }

  async getJobById(id: string): Promise<Job | null> {
    return this.byId(id) ?? null;
  }

  async getQueueSize(): Promise<number> {
    return this.sql('SELECT COUNT(*) FROM agenda_jobs WHERE next_run_at < ?').pluck().get(Date.now()) as number;
  }

  async removeJobs(options: RemoveJobsOptions): Promise<number> {
    return this.updateMatching(options, 'DELETE FROM agenda_jobs');
  }

  async disableJobs(options: RemoveJobsOptions): Promise<number> {
    return this.updateMatching(options, 'UPDATE agenda_jobs SET disabled = 1');
  }

  async enableJobs(options: RemoveJobsOptions): Promise<number> {
    return this.updateMatching(options, 'UPDATE agenda_jobs SET disabled = 0');
  }

  async purgeAllJobs(): Promise<number> {
    return this.sql('DELETE FROM agenda_jobs').run().changes;
  }

  async saveJob<DATA = unknown>(job: JobParameters<DATA>, options: JobRepositoryOptions | undefined): Promise<JobParameters<DATA>> {
    try {
      return this.db.transaction(() => this.save(job as Job, options?.lastModifiedBy)).immediate() as JobParameters<DATA>;
    } catch (err) {
      throw writeFailure(err); // a scheduled publish is answered 507/503 when its job cannot be saved
    }
  }

  async saveJobState(job: Job, options: JobRepositoryOptions | undefined): Promise<void> {
    this.db.transaction(() => {
      const existing = job._id === undefined ? undefined : this.byId(job._id);
      if (!existing || existing.name !== job.name) {
        throw new Error(`job ${String(job._id)} (name: ${job.name}) cannot be updated in the database, maybe it does not exist anymore?`);
      }
      this.write({ ...merge(existing, job, stateFields), lastModifiedBy: options?.lastModifiedBy });
    }).immediate();
  }

  async lockJob(job: Job, options: JobRepositoryOptions | undefined): Promise<Job | undefined> {
    if (job._id === undefined) return undefined;
    const row = this
      .sql(
        `UPDATE agenda_jobs SET locked_at = ?, last_modified_by = ?
         WHERE id = ? AND name = ? AND locked_at IS NULL AND next_run_at IS ? AND disabled = 0 RETURNING *`,
      )
      .get(Date.now(), options?.lastModifiedBy ?? null, job._id, job.name, job.nextRunAt?.getTime() ?? null) as Row | undefined;
    return row && fromRow(row);
  }

  async unlockJob(job: Job): Promise<void> {
    // A job whose nextRunAt is null is running its last time; its lock stays until it finishes.
    if (job._id !== undefined) this.sql('UPDATE agenda_jobs SET locked_at = NULL WHERE id = ? AND next_run_at IS NOT NULL').run(job._id);
  }

  async unlockJobs(jobIds: (JobId | string)[]): Promise<void> {
    const unlock = this.sql('UPDATE agenda_jobs SET locked_at = NULL WHERE id = ?');
    this.db.transaction(() => jobIds.forEach((id) => unlock.run(String(id))))();
  }

  async getNextJobToRun(jobName: string, nextScanAt: Date, lockDeadline: Date, now: Date | undefined, options: JobRepositoryOptions | undefined): Promise<Job | undefined> {
    // Agenda asks once a second per job name, and nearly always nothing is due: a read,
    // served by indexes whatever the number of future jobs, answers that without taking
    // the write lock. A job found is then locked only if it is still as read; if another
    // process took it meanwhile, the next one is looked for.
    for (;;) {
      const found = this.sql(nextToRun).get(jobName, nextScanAt.getTime(), jobName, lockDeadline.getTime()) as Pick<Row, 'id' | 'next_run_at' | 'locked_at'> | undefined;
      if (!found) return undefined;
      const row = this
        .sql(
          `UPDATE agenda_jobs SET locked_at = ?, last_modified_by = ?
           WHERE id = ? AND disabled = 0 AND next_run_at IS ? AND locked_at IS ? RETURNING *`,
        )
        .get((now ?? new Date()).getTime(), options?.lastModifiedBy ?? null, found.id, found.next_run_at, found.locked_at) as Row | undefined;
      if (row) return fromRow(row);
    }
  }

  /** Agenda's save semantics: update by id, upsert `single` jobs by name, honour `unique` (with debounce), else insert. */
  private save(job: Job, lastModifiedBy: string | undefined): Job {
    const { unique, uniqueOpts, ...props } = job;
    const by = { ...props, lastModifiedBy };
    if (props._id !== undefined) {
      const existing = this.byId(props._id);
      // A job removed meanwhile stays removed; the caller gets its data back unchanged.
      return existing ? this.write({ ...merge(existing, by, updateFields), name: props.name, lastModifiedBy }) : job;
    }
    if (props.type === 'single') {
      const existing = this.select(new Where("name = ? AND type = 'single'", props.name))[0];
      if (!existing) return this.insert(by);
      const next = { ...merge(existing, by, definitionFields), lastModifiedBy };
      // A repeating job saved again at startup must not lose a run that is already due.
      if (props.nextRunAt && props.nextRunAt <= new Date() && existing.nextRunAt) next.nextRunAt = existing.nextRunAt;
      return this.write(next);
    }
    if (!unique) return this.insert(by);
    const where = new Where('name = ?', props.name);
    for (const [key, value] of Object.entries(unique)) where.push(...fieldCondition(key, value));
    const existing = this.select(where)[0];
    const debounce = uniqueOpts?.debounce;
    if (existing && uniqueOpts?.insertOnly && !debounce) return existing;
    const { nextRunAt, debounceStartedAt } = debounce
      ? debouncedRun(existing, props.nextRunAt, debounce, new Date())
      : { nextRunAt: props.nextRunAt, debounceStartedAt: undefined };
    if (!existing) return this.insert({ ...by, nextRunAt, debounceStartedAt });
    return this.write({ ...merge(existing, by, definitionFields), nextRunAt, debounceStartedAt, lastModifiedBy });
  }

  private insert(job: Job): Job {
    return this.write({ ...pick(job, [...definitionFields, 'name', 'lastModifiedBy', 'debounceStartedAt']), _id: toJobId(randomUUID()) } as Job);
  }

  /** Writes the whole job (insert or replace) and returns it as stored. */
  private write(job: Job): Job {
    const { _id, name, type, priority, nextRunAt, lockedAt, disabled, lastModifiedBy, data, ...rest } = job;
    const row = this
      .sql(
        `INSERT OR REPLACE INTO agenda_jobs (id, name, type, priority, next_run_at, locked_at, disabled, last_modified_by, data, attrs)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
      )
      .get(
        _id, name, type, priority ?? 0, nextRunAt?.getTime() ?? null, lockedAt?.getTime() ?? null, disabled ? 1 : 0,
        lastModifiedBy ?? null, data === undefined ? null : JSON.stringify(data), JSON.stringify(rest),
      ) as Row;
    return fromRow(row);
  }

  private byId(id: string): Job | undefined {
    return this.select(new Where('id = ?', id))[0];
  }

  private select(where: Where, order = 'rowid'): Job[] {
    const rows = this.sql(`SELECT * FROM agenda_jobs ${where.sql()} ORDER BY ${order}`).all(...where.params) as Row[];
    return rows.map(fromRow);
  }

  /** Runs `statement` on the jobs matching `options`; no criteria matches nothing, as Agenda requires. */
  private updateMatching(options: RemoveJobsOptions, statement: string): number {
    const where = filterOf(options);
    if (where.empty) return 0;
    return this.sql(`${statement} ${where.sql()}`).run(...where.params).changes;
  }
}

/** A WHERE clause built from conditions and their bound values (values are never spliced into SQL). */
class Where {
  private readonly conditions: string[] = [];
  readonly params: unknown[] = [];

  constructor(condition?: string, ...params: unknown[]) {
    if (condition) this.push(condition, ...params);
  }

  push(condition: string, ...params: unknown[]): void {
    this.conditions.push(condition);
    this.params.push(...params);
  }

  get empty(): boolean {
    return this.conditions.length === 0;
  }

  sql(): string {
    return this.empty ? '' : `WHERE ${this.conditions.join(' AND ')}`;
  }
}

function filterOf(o: RemoveJobsOptions): Where {
  const where = new Where();
  const anyOf = (column: string, values: readonly unknown[], negate = false): void =>
    where.push(`${column} ${negate ? 'NOT ' : ''}IN (${values.map(() => '?').join(', ')})`, ...values.map(String));
  if (o.id !== undefined) where.push('id = ?', String(o.id));
  else if (o.ids?.length) anyOf('id', o.ids);
  if (o.name !== undefined) where.push('name = ?', o.name);
  else if (o.names?.length) anyOf('name', o.names);
  else if (o.notNames?.length) anyOf('name', o.notNames, true);
  if (o.data !== undefined) dataConditions(where, '$', o.data);
  return where;
}

/**
 * `data` matches when every key of the given object (recursively) has the given value, as
 * Agenda's backends do. The path is written into the SQL as a quoted literal so that a
 * lookup by `data.id` (how the scheduler cancels a delivery) uses its expression index.
 */
function dataConditions(where: Where, path: string, value: unknown): void {
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Date)) {
    for (const [key, inner] of Object.entries(value)) dataConditions(where, `${path}.${JSON.stringify(key)}`, inner);
  } else if (value === null) {
    where.push(`json_type(data, ${sqlString(path)}) = 'null'`);
  } else {
    where.push(`json_extract(data, ${sqlString(path)}) = ?`, sqlValue(value));
  }
}

function sqlString(s: string): string {
  return `'${s.replaceAll("'", "''")}'`;
}

/** The condition of one `unique` key: `data.<path>`, a column, or a field kept in `attrs`. */
function fieldCondition(key: string, value: unknown): [string, ...unknown[]] {
  if (key.startsWith('data.')) return ['json_extract(data, ?) = ?', `$.${key.slice(5)}`, sqlValue(value)];
  const column = columnOf[key as Field];
  if (column) return [`${column} = ?`, value instanceof Date ? value.getTime() : sqlValue(value)];
  return ['json_extract(attrs, ?) = ?', `$.${JSON.stringify(key)}`, sqlValue(value)];
}

/** A JS value as SQLite's json_extract returns it. */
function sqlValue(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object' && value !== null) return JSON.stringify(value);
  return value;
}

function orderBy(sort: JobsSort | undefined): string {
  const parts = Object.entries(sort ?? {}).map(([key, dir]) => `${sortColumns[key as keyof JobsSort]} ${dir === 'asc' ? 'ASC' : 'DESC'} NULLS LAST`);
  return parts.length > 0 ? parts.join(', ') : 'next_run_at DESC NULLS LAST, json_extract(attrs, \'$.lastRunAt\') DESC NULLS LAST';
}

function fromRow(row: Row): Job {
  const attrs = JSON.parse(row.attrs, (key, value: unknown) => (isDateField.has(key) && typeof value === 'string' ? new Date(value) : value)) as Partial<Job>;
  return {
    ...attrs,
    _id: toJobId(row.id),
    name: row.name,
    type: row.type as Job['type'],
    priority: row.priority,
    nextRunAt: row.next_run_at === null ? null : new Date(row.next_run_at),
    lockedAt: row.locked_at === null ? undefined : new Date(row.locked_at),
    disabled: row.disabled === 1,
    lastModifiedBy: row.last_modified_by ?? undefined,
    data: row.data === null ? undefined : (JSON.parse(row.data) as unknown),
  };
}

function pick(job: Partial<Job>, fields: readonly Field[]): Partial<Job> {
  const out: Partial<Job> = {};
  for (const f of fields) (out as Record<string, unknown>)[f] = job[f];
  return out;
}

/** `existing` with `fields` taken from `next` (an undefined value clears the field, as an SQL NULL would). */
function merge(existing: Job, next: Partial<Job>, fields: readonly Field[]): Job {
  return { ...existing, ...pick(next, fields) };
}
