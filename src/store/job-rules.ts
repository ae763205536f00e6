import { computeJobState, type JobParameters, type JobsOverview, type UniqueOpts } from 'agenda';

/** When a debounced job runs next, and since when its window is open (undefined: none). */
export interface DebouncedRun {
  nextRunAt: JobParameters['nextRunAt'];
  debounceStartedAt: Date | undefined;
}

/**
 * Agenda's debounce, as its own backends apply it, for every job repository of Tocsin's:
 * trailing runs `delay` after the last save, but at most `maxWait` after the first;
 * leading keeps the first save's time. `existing` is the job saved before, if any.
 */
export function debouncedRun(
  existing: Pick<JobParameters, 'nextRunAt' | 'debounceStartedAt'> | undefined,
  nextRunAt: JobParameters['nextRunAt'],
  debounce: NonNullable<UniqueOpts['debounce']>,
  now: Date,
): DebouncedRun {
  const started = existing?.debounceStartedAt ?? now;
  if (debounce.strategy === 'leading') return { nextRunAt: existing ? existing.nextRunAt : nextRunAt, debounceStartedAt: started };
  if (existing && debounce.maxWait && now.getTime() - started.getTime() >= debounce.maxWait) {
    return { nextRunAt: now, debounceStartedAt: undefined }; // waited long enough: run now and start a new window
  }
  return { nextRunAt: new Date(now.getTime() + debounce.delay), debounceStartedAt: started };
}

/** Agenda's overview of `jobs`: per name, how many there are in each state. */
export function overviewOf(jobs: Iterable<JobParameters>, now: Date): JobsOverview[] {
  const overviews = new Map<string, JobsOverview>();
  for (const job of jobs) {
    let o = overviews.get(job.name);
    if (!o) {
      o = { name: job.name, total: 0, running: 0, scheduled: 0, queued: 0, completed: 0, failed: 0, repeating: 0, paused: 0 };
      overviews.set(job.name, o);
    }
    o.total++;
    o[computeJobState(job, now)]++;
    if (job.disabled === true) o.paused++;
  }
  return [...overviews.values()];
}
