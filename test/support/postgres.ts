import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openPool } from '../../src/store/postgres/pool.js';
import { openSchema } from '../../src/store/postgres/schema.js';
import { openPostgresMessageStore } from '../../src/store/postgres/store.js';
import type { Store } from '../../src/store/store.js';

/**
 * Throwaway PostgreSQL clusters from Debian's server package, for FerretDB (ferretdb.ts)
 * and the PostgreSQL store's tests: initdb into a temp directory, listening only on a unix
 * socket there (no TCP port to pick and race for), durability settings off. The server
 * runs under a small `sh` supervisor whose stdin is a pipe from this process: when this
 * process ends, however it ends (even SIGKILL), the pipe closes and the supervisor stops
 * the server and removes the directory. `stop()` does the same now and waits for it.
 */
export interface PostgresCluster {
  /** The directory of its unix socket (port 5432 in it). */
  sockets: string;
  /** `postgres://postgres@/<database>?host=<sockets>&port=5432` */
  url(database: string): string;
  stop(): Promise<void>;
  /** The server dies as in a crash: SIGKILL to it and every process it started. */
  kill(): void;
  /** A standby becomes a primary (`pg_ctl promote`); resolves once it takes writes. */
  promote(): Promise<void>;
}

/**
 * How a cluster is made: `settings` override the defaults below (`postgres -c`); with
 * `standbyOf`, the cluster is a streaming replica of that one (pg_basebackup), connecting
 * as `name`, which the primary's `synchronous_standby_names` may give, through a
 * replication slot of that name (the primary keeps the WAL it has not streamed yet).
 */
export interface LaunchOptions {
  settings?: Record<string, string>;
  standbyOf?: { sockets: string; name: string };
}

/** No durability on a disk: a test's data lives as long as the test. A process's SIGKILL loses nothing the OS holds. */
const defaultSettings = { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' };

/** Where PostgreSQL's programs are, and who runs them. */
export interface PostgresInstall {
  pgBin: string;
  /** The postgres account when running as root (initdb and postgres refuse root). */
  owner: { uid: number; gid: number } | undefined;
}

/** The install, or why there is none to run. */
export function locatePostgres(): PostgresInstall | { skip: string } {
  const pgBin = postgresBinDir();
  if (!pgBin) return { skip: 'PostgreSQL server binaries not found under /usr/lib/postgresql/*/bin (apt-get install postgresql)' };
  let owner: PostgresInstall['owner'];
  if (process.getuid?.() === 0) {
    owner = postgresAccount();
    if (!owner) return { skip: 'running as root and there is no postgres account to run PostgreSQL as' };
  }
  return { pgBin, owner };
}

/** Starts a fresh cluster; resolves once it accepts connections. */
export async function launchPostgres({ pgBin, owner }: PostgresInstall, label: string, { settings = {}, standbyOf }: LaunchOptions = {}): Promise<PostgresCluster> {
  const root = mkdtempSync(join(tmpdir(), `tocsin-${label}-`));
  const data = join(root, 'data');
  const sockets = join(root, 'sockets');
  mkdirSync(sockets);
  if (owner) for (const dir of [root, sockets]) chownSync(dir, owner.uid, owner.gid);
  if (standbyOf) {
    await run(join(pgBin, 'pg_basebackup'), ['-D', data, '-h', standbyOf.sockets, '-p', '5432', '-U', 'postgres', '-X', 'stream', '--no-sync', '--checkpoint=fast', '--create-slot', '--slot', standbyOf.name], owner);
    writeFileSync(join(data, 'standby.signal'), '');
    appendFileSync(join(data, 'postgresql.auto.conf'), `primary_conninfo = 'host=${standbyOf.sockets} port=5432 user=postgres application_name=${standbyOf.name}'\nprimary_slot_name = '${standbyOf.name}'\n`);
  } else {
    await run(join(pgBin, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync'], owner);
  }
  const options = Object.entries({ ...defaultSettings, ...settings }).flatMap(([key, value]) => ['-c', `${key}=${value}`]);
  const postgres = supervise('INT', root, owner, join(pgBin, 'postgres'), ['-D', data, '-k', sockets, '-p', '5432', '-c', 'listen_addresses=', ...options]);
  try {
    await postgres.logged(/database system is ready to accept (read-only )?connections/);
  } catch (error) {
    await postgres.stop();
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
  let stopped: Promise<void> | undefined;
  return {
    sockets,
    url: (database) => `postgres://postgres@/${database}?host=${encodeURIComponent(sockets)}&port=5432`,
    stop: () => {
      stopped ??= postgres.stop().then(() => rmSync(root, { recursive: true, force: true }));
      return stopped;
    },
    kill: () => killTree(Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0])),
    promote: () => run(join(pgBin, 'pg_ctl'), ['promote', '-w', '-D', data], owner),
  };
}

/**
 * SIGKILL to `pid` and its children: stopped first, so it cannot start them again (a
 * postmaster restarts its backends after one dies), then every child, then itself.
 */
function killTree(pid: number): void {
  process.kill(pid, 'SIGSTOP');
  for (const child of childrenOf(pid)) process.kill(child, 'SIGKILL');
  process.kill(pid, 'SIGKILL');
}

/** The processes whose parent is `pid`, from /proc (field 4 of stat, after the command's parenthesised name). */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);
}

/**
 * The supervisor: runs the server, stops it with `$sig` when its stdin (a pipe from this
 * process) reaches EOF, then removes `$root` (if given). Asynchronous lists get /dev/null
 * as stdin in a non-interactive sh, hence the copy of stdin on fd 3.
 */
const supervisor = `
sig=$1 root=$2; shift 2
exec 3<&0
"$@" </dev/null >&2 &
child=$!
{ cat <&3 >/dev/null; kill -s "$sig" "$child" 2>/dev/null; } &
watcher=$!
wait "$child"; status=$?
kill "$watcher" 2>/dev/null
[ -z "$root" ] || rm -rf "$root"
exit "$status"
`;

export interface Supervised {
  /** Resolves with the match once the server's output matches; rejects if it exits first. */
  logged(pattern: RegExp): Promise<RegExpExecArray>;
  stop(): Promise<void>;
}

export function supervise(signal: string, root: string, owner: PostgresInstall['owner'], command: string, args: string[]): Supervised {
  const child = spawn('/bin/sh', ['-c', supervisor, 'tocsin-supervise', signal, root, command, ...args], {
    stdio: ['pipe', 'ignore', 'pipe'],
    env: { ...process.env, LC_ALL: 'C' },
    ...owner,
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let output = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    output = (output + chunk).slice(-64 * 1024);
  });
  return {
    logged: (pattern) =>
      new Promise((resolve, reject) => {
        const check = (): void => {
          const match = pattern.exec(output);
          if (!match) return;
          child.stderr?.off('data', check);
          // Ready: from now on the server must not keep this process alive.
          setReferenced(child, false);
          resolve(match);
        };
        child.stderr?.on('data', check);
        void exited.then(() => reject(new Error(`${command} exited (${child.exitCode ?? child.signalCode}) before ${pattern}:\n${output}`)));
        check();
      }),
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      setReferenced(child, true);
      child.stdin?.end();
      await exited;
    },
  };
}

function setReferenced(child: ChildProcess, referenced: boolean): void {
  for (const handle of [child, child.stdin, child.stderr]) {
    const h = handle as { ref?: () => void; unref?: () => void } | null;
    if (referenced) h?.ref?.();
    else h?.unref?.();
  }
}

function run(command: string, args: string[], owner: PostgresInstall['owner']): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { env: { ...process.env, LC_ALL: 'C' }, ...owner }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${command} failed: ${error.message}\n${stdout}${stderr}`));
      else resolve();
    });
  });
}

/** The newest /usr/lib/postgresql/<version>/bin holding initdb and postgres (Debian's layout). */
function postgresBinDir(): string | undefined {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return undefined;
  return readdirSync(base)
    .filter((version) => /^\d+$/.test(version))
    .sort((a, b) => Number(b) - Number(a))
    .map((version) => join(base, version, 'bin'))
    .find((bin) => existsSync(join(bin, 'initdb')) && existsSync(join(bin, 'postgres')));
}

function postgresAccount(): { uid: number; gid: number } | undefined {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('postgres:'));
  const [, , uid, gid] = line?.split(':') ?? [];
  return uid && gid ? { uid: Number(uid), gid: Number(gid) } : undefined;
}

let located: PostgresInstall | { skip: string } | undefined;
let shared: Promise<PostgresCluster> | undefined;
let databases = 0;

/**
 * Why the PostgreSQL store's tests cannot run here (their describe's `skip`), or false.
 * With TOCSIN_REQUIRE_FERRETDB=1 (.ci/run: FerretDB runs on PostgreSQL) a missing server is an error.
 */
export function postgresSkip(): string | false {
  located ??= locatePostgres();
  if (!('skip' in located)) return false;
  if (process.env.TOCSIN_REQUIRE_FERRETDB === '1') throw new Error(`TOCSIN_REQUIRE_FERRETDB=1, but ${located.skip}`);
  return located.skip;
}

/** The URL of a new, empty database on this process's cluster (started on first use, stopped at exit). */
export async function freshDatabase(label = 'test'): Promise<string> {
  const skip = postgresSkip();
  if (skip) throw new Error(skip);
  shared ??= launchPostgres(located as PostgresInstall, 'postgres');
  const cluster = await shared;
  return cluster.url(await createDatabase(cluster, label));
}

/** Creates a database on `cluster` no earlier call named; answers its name. */
export async function createDatabase(cluster: PostgresCluster, label: string): Promise<string> {
  const name = `t${++databases}_${label.replace(/\W/g, '_')}`.slice(0, 63).toLowerCase();
  const admin = new pg.Client({ connectionString: cluster.url('postgres') });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  return name;
}

/** A cluster of this process's own (the benchmarks'), or why there is none to run. */
export function startPostgres(label: string): Promise<PostgresCluster> {
  const skip = postgresSkip();
  if (skip) throw new Error(skip);
  return launchPostgres(located as PostgresInstall, label);
}

/**
 * A node's message store (cache, jobs, live feed) on the database at `url`, on a pool of
 * its own, which `close` ends; the feed's errors go to `errors`. `logs`: those of a new
 * database (0: the default).
 */
export async function messageStoreNode(url: string, errors: unknown[], logs = 0): Promise<Store> {
  const pool = openPool(url);
  try {
    const count = await openSchema(pool, logs);
    const report = (err: unknown): number => errors.push(err);
    const store = await openPostgresMessageStore(pool, { onError: report, checkMs: 1000, retryMs: 20 }, report, { logs: count });
    return {
      ...store,
      close: async () => {
        await store.close();
        await pool.end();
      },
    };
  } catch (err) {
    await pool.end();
    throw err;
  }
}
