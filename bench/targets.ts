import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listeningPid, pin, rssBytes, serverCore } from './proc.js';

/** A server under test. `pid` is known for servers the harness started, or found for a local --target. */
export interface Target {
  name: string;
  url: string;
  /** The SMTP listener's port, when smtp-server-listen is set. */
  smtpPort?: number;
  pid?: number;
  /** The server's own heap, when it can tell (servers started by the harness). */
  heapUsed(): Promise<number | undefined>;
  rss(): number | undefined;
  stop(): Promise<void>;
  /** SIGKILL, for crash-and-restart measurements (servers the harness started). */
  kill?(): Promise<void>;
}

export interface StartOptions {
  /** Write a V8 CPU profile of the server into this directory. */
  profileDir?: string;
  /** Server settings as `--key value` pairs. */
  settings?: string[];
  /** Called once the server has exited (its temp files go). */
  cleanup?: () => void;
}

/** Starts a server script with IPC; it reports `{ port }` once listening. */
async function startForked(name: string, script: string, options: StartOptions): Promise<Target> {
  // --expose-gc: the heap is read after a collection, so garbage is not counted as use.
  const execArgv = ['--expose-gc', ...(options.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.profileDir}`] : [])];
  const child: ChildProcess = fork(new URL(script, import.meta.url).pathname, options.settings ?? [], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  pin(child.pid, serverCore);
  const [ready] = (await once(child, 'message')) as [{ port: number; smtpPort?: number }];
  const ask = async <T>(question: string, key: string): Promise<T> => {
    child.send(question);
    for (;;) {
      const [reply] = (await once(child, 'message')) as [Record<string, T>];
      if (key in reply) return reply[key] as T;
    }
  };
  return {
    name,
    url: `http://127.0.0.1:${ready.port}`,
    ...(ready.smtpPort !== undefined && { smtpPort: ready.smtpPort }),
    pid: child.pid,
    heapUsed: async () => (await ask<NodeJS.MemoryUsage>('memory', 'memory')).heapUsed,
    rss: () => rssBytes(child.pid),
    kill: async () => {
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
      options.cleanup?.();
    },
    stop: async () => {
      child.send('stop');
      const exited = once(child, 'exit');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
      options.cleanup?.();
    },
  };
}

/**
 * Tocsin's cache: on disk by default (what users run, and what ntfy is measured with),
 * in memory with `--in-memory`. Set once by the harness; every Tocsin a scenario starts uses it.
 */
let cacheOnDisk = true;
export function useInMemoryCache(): void {
  cacheOnDisk = false;
}

export function startTocsin(options: StartOptions = {}): Promise<Target> {
  const dir = cacheOnDisk ? mkdtempSync(join(tmpdir(), 'tocsin-bench-')) : undefined;
  return startForked('tocsin', './tocsin-server.js', {
    ...options,
    ...(dir !== undefined && { cleanup: () => rmSync(dir, { recursive: true, force: true }) }),
    // A short minimum delay lets the scheduled scenario run in seconds. The load comes from
    // one address: its visitor limits are raised out of reach, but still checked.
    settings: [
      '--global-topic-limit', '100000', '--keepalive-interval', '45s', '--message-delay-min', '1s',
      '--visitor-request-limit-burst', '1000000000', '--visitor-message-daily-limit', '1000000000', '--visitor-subscription-limit', '1000000',
      '--visitor-attachment-daily-bandwidth-limit', '1T', '--visitor-topic-creation-limit-burst', '0',
      ...(dir === undefined ? [] : ['--cache-file', join(dir, 'cache.db')]),
      ...(options.settings ?? []),
    ],
  });
}

export const startCeiling = (options: StartOptions = {}): Promise<Target> => startForked('ceiling', './ceiling.js', options);

/**
 * Any ntfy-compatible server already running (`--target URL`): no heap; its pid (for RSS
 * and CPU) is `pid` if given, else the process listening on the URL's port, if local.
 */
export function external(url: string, pid?: number): Target {
  const base = new URL(url);
  const port = Number(base.port || (base.protocol === 'https:' ? 443 : 80));
  const owner = pid ?? (['127.0.0.1', 'localhost', '[::1]'].includes(base.hostname) ? listeningPid(port) : undefined);
  if (owner === undefined) console.error(`# no pid for ${url}: idle memory and server CPU are left out (give --target-pid)`);
  return { name: 'target', url: url.replace(/\/$/, ''), ...(owner !== undefined && { pid: owner }), heapUsed: async () => undefined, rss: () => rssBytes(owner), stop: async () => undefined };
}
