import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const hz = 100;

/**
 * CPU seconds (user + system) a process has used so far, or one of its threads (`tid`;
 * a Node process's main thread is its pid); undefined if it cannot be read.
 */
export function cpuSeconds(pid: number | undefined, tid?: number): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / hz;
  } catch {
    return undefined;
  }
}

/** Resident memory in bytes. */
export function rssBytes(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined;
  }
}

/**
 * Pins a process and all its threads to one core, so the server under test and the load
 * never share a core (DESIGN.md: server on one core, load on the other). No-op without taskset.
 */
export function pin(pid: number | undefined, core: number): void {
  if (pid === undefined) return;
  try {
    execFileSync('taskset', ['-a', '-pc', String(core), String(pid)], { stdio: 'ignore' });
  } catch {
    // taskset missing or not permitted: run unpinned
  }
}

/** Measures the CPU a process spends while `work` runs, as a share of one core. */
export async function cpuShare<T>(pid: number | undefined, work: () => Promise<T>): Promise<{ result: T; share: number | undefined }> {
  const before = cpuSeconds(pid);
  const start = performance.now();
  const result = await work();
  const after = cpuSeconds(pid);
  const seconds = (performance.now() - start) / 1000;
  return { result, share: before === undefined || after === undefined ? undefined : (after - before) / seconds };
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] as number;
}
