import { spawnSync } from 'node:child_process';
import { launchPostgres, locatePostgres, supervise, type PostgresInstall, type Supervised } from './postgres.js';

/**
 * A real MongoDB-wire server for the tests of the MongoDB store: FerretDB v1.24.2 (built
 * once by tools/ferretdb.sh into a cache directory) on a throwaway PostgreSQL cluster.
 *
 * Why these choices:
 * - PostgreSQL, not FerretDB's SQLite backend: that one answers SQLITE_BUSY to concurrent
 *   writers, and the MongoDB store's tests are about concurrent nodes.
 * - PostgreSQL listens only on a unix socket in the cluster's own temp directory
 *   (postgres.ts), and FerretDB on 127.0.0.1 port 0 (the port it got is read from its
 *   log): no port is picked before it is bound, so no race with other processes for a
 *   "free" port. FerretDB runs under the same supervisor as PostgreSQL (postgres.ts).
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

interface Ready extends PostgresInstall {
  ferretdb: string;
}

let located: Ready | { skip: string } | undefined;

function locate(): Ready | { skip: string } {
  const postgres = locatePostgres();
  if ('skip' in postgres) return postgres;
  // Builds FerretDB on first use (a minute or two; tools/ferretdb.sh explains), then reuses it.
  const built = spawnSync('bash', [script], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (built.status !== 0) throw new Error(`tools/ferretdb.sh failed (${built.status ?? built.signal ?? built.error?.message})`);
  const ferretdb = built.stdout.trim();
  if (!ferretdb) return { skip: 'FerretDB is not built and there is no Go toolchain to build it (tools/ferretdb.sh)' };
  return { ferretdb, ...postgres };
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
  const { ferretdb, ...install } = located as Ready;
  const postgres = await launchPostgres(install, 'ferretdb');
  let ferret: Supervised | undefined;
  try {
    ferret = supervise('TERM', '', undefined, ferretdb, [
      '--handler=postgresql',
      `--postgresql-url=${postgres.url('postgres')}`,
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
      })();
      return stopped;
    };
    const databaseName = (label = 'test'): string => `t${++names}_${label.replace(/[^A-Za-z0-9_-]/g, '_')}`.slice(0, 63);
    return { url, databaseName, stop };
  } catch (error) {
    await ferret?.stop();
    await postgres.stop();
    throw error;
  }
}
