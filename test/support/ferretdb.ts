import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A real MongoDB-wire server for the tests of the MongoDB store: FerretDB v1.24.2 (built
 * once by tools/ferretdb.sh into a cache directory) on a throwaway PostgreSQL cluster.
 *
 * Why these choices:
 * - PostgreSQL, not FerretDB's SQLite backend: that one answers SQLITE_BUSY to concurrent
 *   writers, and the MongoDB store's tests are about concurrent nodes.
 * - PostgreSQL listens only on a unix socket in the cluster's own temp directory, and
 *   FerretDB on 127.0.0.1 port 0 (the port it got is read from its log): no port is
 *   picked before it is bound, so no race with other processes for a "free" port.
 * - Each server runs under a small `sh` supervisor whose stdin is a pipe from this
 *   process: when this process ends, however it ends (even SIGKILL), the pipe closes and
 *   the supervisor stops its server and removes the temp directory. `stop()` does the same
 *   now and waits for it.
 * - One FerretDB per test process: FerretDB numbers capped-collection records with a
 *   per-process counter (seconds << 32 | counter), so two FerretDB processes on one
 *   database would interleave their records out of insertion order. Several clients of
 *   this one server play several Tocsin nodes.
 */
export interface FerretDb {
  /** `mongodb://127.0.0.1:PORT/?directConnection=true` */
  url: string;
  /** A database name no earlier call returned (FerretDB: `[A-Za-z0-9_-]{1,63}`). */
  databaseName(label?: string): string;
  /** Stops FerretDB and PostgreSQL and removes their files; a later start begins afresh. */
  stop(): Promise<void>;
}

const script = new URL('../../../tools/ferretdb.sh', import.meta.url).pathname;

interface Ready {
  ferretdb: string;
  pgBin: string;
  /** The postgres account when running as root (initdb and postgres refuse root). */
  owner: { uid: number; gid: number } | undefined;
}

let located: Ready | { skip: string } | undefined;

function locate(): Ready | { skip: string } {
  const pgBin = postgresBinDir();
  if (!pgBin) return { skip: 'PostgreSQL server binaries not found under /usr/lib/postgresql/*/bin (apt-get install postgresql)' };
  let owner: Ready['owner'];
  if (process.getuid?.() === 0) {
    owner = postgresAccount();
    if (!owner) return { skip: 'running as root and there is no postgres account to run PostgreSQL as' };
  }
  // Builds FerretDB on first use (a minute or two; tools/ferretdb.sh explains), then reuses it.
  const built = spawnSync('bash', [script], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (built.status !== 0) throw new Error(`tools/ferretdb.sh failed (${built.status ?? built.signal ?? built.error?.message})`);
  const ferretdb = built.stdout.trim();
  if (!ferretdb) return { skip: 'FerretDB is not built and there is no Go toolchain to build it (tools/ferretdb.sh)' };
  return { ferretdb, pgBin, owner };
}

/**
 * Why the MongoDB tests cannot run here (the `skip` option of their describe), or false.
 * Builds FerretDB on first use. With TOCSIN_REQUIRE_FERRETDB=1 (.ci/run sets it when Go is
 * there) a missing piece is an error instead, so CI cannot skip these tests unnoticed.
 */
export function ferretDbSkip(): string | false {
  located ??= locate();
  if (!('skip' in located)) return false;
  if (process.env.TOCSIN_REQUIRE_FERRETDB === '1') throw new Error(`TOCSIN_REQUIRE_FERRETDB=1, but ${located.skip}`);
  return located.skip;
}

let running: Promise<FerretDb> | undefined;

/**
 * Starts PostgreSQL and FerretDB, at most once per test process: later calls get the same
 * server until `stop()`. Call it from `before` (or a test); stop it from a top-level
 * `after` — or leave it to the end of the process.
 */
export function startFerretDb(): Promise<FerretDb> {
  running ??= launch().catch((error: unknown) => {
    running = undefined;
    throw error;
  });
  return running;
}

async function launch(): Promise<FerretDb> {
  const skip = ferretDbSkip();
  if (skip) throw new Error(skip);
  const { ferretdb, pgBin, owner } = located as Ready;

  const root = mkdtempSync(join(tmpdir(), 'tocsin-ferretdb-'));
  const data = join(root, 'data');
  const sockets = join(root, 'sockets');
  mkdirSync(sockets);
  if (owner) for (const dir of [root, sockets]) chownSync(dir, owner.uid, owner.gid);

  await run(join(pgBin, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync'], owner);
  // A throwaway cluster: durability settings off, no TCP listener (the socket is in `sockets`).
  const postgres = supervise('INT', root, owner, join(pgBin, 'postgres'), [
    '-D', data, '-k', sockets, '-p', '5432', '-c', 'listen_addresses=',
    '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off',
  ]);
  let ferret: Supervised | undefined;
  try {
    await postgres.logged(/database system is ready to accept connections/);
    ferret = supervise('TERM', '', undefined, ferretdb, [
      '--handler=postgresql',
      `--postgresql-url=postgres://postgres@/postgres?host=${encodeURIComponent(sockets)}&port=5432`,
      '--listen-addr=127.0.0.1:0',
      '--debug-addr=-', // its HTTP debug listener (default 127.0.0.1:8088) is not needed
      '--state-dir=-', // no state.json in the working directory
      '--telemetry=disable',
      '--log-format=json',
    ]);
    const port = (await ferret.logged(/Listening on TCP 127\.0\.0\.1:(\d+)/))[1];
    const url = `mongodb://127.0.0.1:${port}/?directConnection=true`;
    let names = 0;
    let stopped: Promise<void> | undefined;
    const started = ferret;
    const stop = (): Promise<void> => {
      stopped ??= (async () => {
        running = undefined;
        await started.stop();
        await postgres.stop();
        rmSync(root, { recursive: true, force: true });
      })();
      return stopped;
    };
    const databaseName = (label = 'test'): string => `t${++names}_${label.replace(/[^A-Za-z0-9_-]/g, '_')}`.slice(0, 63);
    return { url, databaseName, stop };
  } catch (error) {
    await ferret?.stop();
    await postgres.stop();
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
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

interface Supervised {
  /** Resolves with the match once the server's output matches; rejects if it exits first. */
  logged(pattern: RegExp): Promise<RegExpExecArray>;
  stop(): Promise<void>;
}

function supervise(signal: string, root: string, owner: Ready['owner'], command: string, args: string[]): Supervised {
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

function run(command: string, args: string[], owner: Ready['owner']): Promise<void> {
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
