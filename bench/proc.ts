import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

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

/**
 * Seconds a process's threads have spent runnable but waiting for a core, summed (the
 * second field of /proc/<pid>/task/<tid>/schedstat): time other processes on its core took,
 * which its own CPU time does not show. Summed because a Go server works on several threads.
 */
export function runQueueSeconds(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    let ns = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[1]);
      } catch {
        // the thread ended while we read
      }
    }
    return ns / 1e9;
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

/** DESIGN.md: the server under test on one core, all load on the other. */
export const serverCore = 0;
export const loadCore = 1;

let tasksetFound: boolean | undefined;
function hasTaskset(): boolean {
  if (tasksetFound === undefined) {
    try {
      execFileSync('taskset', ['-V'], { stdio: 'ignore' });
      tasksetFound = true;
    } catch {
      tasksetFound = false;
    }
  }
  return tasksetFound;
}

/** A command line that runs `command` on `core` through taskset, or unpinned without it. */
export function onCore(core: number, command: string, args: string[]): [string, string[]] {
  return hasTaskset() ? ['taskset', ['-c', String(core), command, ...args]] : [command, args];
}

/**
 * The pid of the process listening on TCP `port` (any local address), from the socket's
 * inode in /proc/net/tcp{,6} and the process whose /proc/<pid>/fd links to it; undefined
 * when no listener is found or its process is not ours to read.
 */
export function listeningPid(port: number): number | undefined {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
      const fields = line.trim().split(/\s+/);
      const local = fields[1]?.split(':')[1];
      if (local !== undefined && parseInt(local, 16) === port && fields[3] === '0A' && fields[9] !== undefined) inodes.add(`socket:[${fields[9]}]`);
    }
  }
  if (inodes.size === 0) return undefined;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${entry}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        if (inodes.has(readlinkSync(`/proc/${entry}/fd/${fd}`))) return Number(entry);
      } catch {
        // the fd closed while we looked
      }
    }
  }
  return undefined;
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

/** Measures the CPU a process spends while `work` runs, per request it reports (µs; undefined when unreadable or none). */
export async function cpuPerRequest<T extends { requests: number }>(pid: number | undefined, work: () => Promise<T>): Promise<{ result: T; micros: number | undefined }> {
  const before = cpuSeconds(pid);
  const result = await work();
  const after = cpuSeconds(pid);
  return { result, micros: before === undefined || after === undefined || result.requests === 0 ? undefined : (1e6 * (after - before)) / result.requests };
}
