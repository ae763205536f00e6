import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { supervise, type Supervised } from './postgres.js';

/**
 * A real S3-compatible server for the tests of the S3 attachment store: SeaweedFS's
 * `weed mini` (master, volume, filer and S3 in one process; built once by
 * tools/seaweedfs.sh into a cache directory) in a temp directory, listening on 127.0.0.1
 * only, with one identity whose keys the tests use (so a wrong key is refused, as by AWS).
 * `mini`, not `server -filer -s3`: `server` holds the first volume allocation for about
 * 9 s after a fresh start (a safety wait for other volume servers), `mini` lifts it on
 * its own volume server's first report. Stopped with SIGKILL: its volume server waits
 * 10 s on SIGTERM, and the data is thrown away anyway. Each call starts its own server.
 */
export interface SeaweedFs {
  /** `http://127.0.0.1:PORT`, the S3 API. */
  endpoint: string;
  accessKey: string;
  secretKey: string;
  region: string;
  /** Creates a bucket no earlier call named, and answers its name. */
  bucket(label?: string): Promise<string>;
  /** An `s3://` URL for attachment-cache-dir on `bucket` (and `prefix`). */
  url(bucket: string, prefix?: string): string;
  /** A client of the server with the identity's keys, for what the tests check behind the store's back. */
  client: S3Client;
  /** Stops the server and removes its files. */
  stop(): Promise<void>;
}

const script = new URL('../../../tools/seaweedfs.sh', import.meta.url).pathname;
const accessKey = 'TOCSINTESTKEY';
const secretKey = 'test/secret+key'; // a / and a + to be percent-encoded in the URL, as real AWS secrets need

let located: { weed: string } | { skip: string } | undefined;

function locate(): { weed: string } | { skip: string } {
  // Builds SeaweedFS on first use (8-9 minutes cold; tools/seaweedfs.sh explains), then reuses it.
  const built = spawnSync('bash', [script], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (built.status !== 0) throw new Error(`tools/seaweedfs.sh failed (${built.status ?? built.signal ?? built.error?.message})`);
  const weed = built.stdout.trim();
  return weed ? { weed } : { skip: 'SeaweedFS is not built and there is no Go toolchain to build it (tools/seaweedfs.sh)' };
}

/**
 * Why the S3 tests cannot run here (the `skip` option of their describe), or false.
 * Builds SeaweedFS on first use. With TOCSIN_REQUIRE_SEAWEEDFS=1 (.ci/run sets it when Go
 * is there) a missing piece is an error instead, so CI cannot skip these tests unnoticed.
 */
export function seaweedFsSkip(): string | false {
  located ??= locate();
  if (!('skip' in located)) return false;
  if (process.env.TOCSIN_REQUIRE_SEAWEEDFS === '1') throw new Error(`TOCSIN_REQUIRE_SEAWEEDFS=1, but ${located.skip}`);
  return located.skip;
}

/** The ports `weed mini` needs (it has no port 0): free ones the OS hands out, released just before weed binds them. */
async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from({ length: count }, () => new Promise<ReturnType<typeof createServer>>((resolve) => {
      const server = createServer();
      server.listen(0, '127.0.0.1', () => resolve(server));
    })),
  );
  const ports = servers.map((s) => (s.address() as { port: number }).port);
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  return ports;
}

/** Starts a SeaweedFS of its own; a port taken between its choice and weed's bind gets one more launch on fresh ports. */
export async function startSeaweedFs(): Promise<SeaweedFs> {
  const skip = seaweedFsSkip();
  if (skip) throw new Error(skip);
  try {
    return await launch((located as { weed: string }).weed);
  } catch (err) {
    if (!(err instanceof Error && /address already in use/.test(err.message))) throw err;
    return launch((located as { weed: string }).weed);
  }
}

async function launch(weed: string): Promise<SeaweedFs> {
  const dir = mkdtempSync(join(tmpdir(), 'tocsin-seaweedfs-'));
  const identities = { identities: [{ name: 'tocsin', credentials: [{ accessKey, secretKey }], actions: ['Admin', 'Read', 'Write', 'List', 'Tagging'] }] };
  writeFileSync(join(dir, 's3.json'), JSON.stringify(identities));
  const [master, masterGrpc, volume, volumeGrpc, filer, filerGrpc, s3, s3Grpc, admin, adminGrpc] = await freePorts(10);
  const flags = [
    `-dir=${dir}`, '-ip=127.0.0.1', '-ip.bind=127.0.0.1',
    `-master.port=${master}`, `-master.port.grpc=${masterGrpc}`, '-master.volumeSizeLimitMB=64',
    `-volume.port=${volume}`, `-volume.port.grpc=${volumeGrpc}`,
    `-filer.port=${filer}`, `-filer.port.grpc=${filerGrpc}`, `-filer.localSocket=${join(dir, 'filer.sock')}`,
    `-s3.port=${s3}`, `-s3.port.grpc=${s3Grpc}`, `-s3.localSocket=${join(dir, 's3.sock')}`, `-s3.config=${join(dir, 's3.json')}`,
    `-admin.port=${admin}`, `-admin.port.grpc=${adminGrpc}`, '-admin.ui=false', '-webdav=false',
    // Their fixed default ports would clash between test files.
    '-admin.port.legacy=0', '-s3.port.iceberg=0', '-s3.port.lance=0',
  ];
  // In the temp directory: the filer keeps its database in the working directory.
  const server: Supervised = supervise('KILL', dir, undefined, '/bin/sh', ['-c', 'cd "$0" && exec "$@"', dir, weed, 'mini', ...flags]);
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true'; // as the store does (s3-bucket.ts)
  const client = new S3Client({ endpoint: `http://127.0.0.1:${s3}`, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: accessKey, secretAccessKey: secretKey } });
  const stop = async (): Promise<void> => {
    client.destroy();
    await server.stop();
    removeSockets([masterGrpc, volumeGrpc, filerGrpc, s3Grpc, adminGrpc] as number[]);
  };
  try {
    await server.logged(/All enabled components are running and ready to use/);
  } catch (err) {
    await stop();
    throw err;
  }
  let buckets = 0;
  return {
    endpoint: `http://127.0.0.1:${s3}`,
    accessKey,
    secretKey,
    region: 'us-east-1',
    client,
    bucket: async (label = 'test') => {
      const name = `t${++buckets}-${label.toLowerCase().replace(/[^a-z0-9-]/g, '-')}`.slice(0, 63);
      await client.send(new CreateBucketCommand({ Bucket: name }));
      return name;
    },
    url: (bucket, prefix) =>
      `s3://${encodeURIComponent(accessKey)}:${encodeURIComponent(secretKey)}@${bucket}${prefix ? `/${prefix}` : ''}?region=us-east-1&endpoint=${encodeURIComponent(`http://127.0.0.1:${s3}`)}`,
    stop,
  };
}

/** The gRPC unix sockets weed makes in /tmp by port, which a SIGKILL leaves behind. */
function removeSockets(ports: number[]): void {
  const names = new Set(ports.map(String));
  for (const entry of readdirSync('/tmp')) {
    const port = /^seaweedfs-.*-(\d+)\.sock$/.exec(entry)?.[1];
    if (port !== undefined && names.has(port)) rmSync(join('/tmp', entry), { force: true });
  }
}
