/**
 * ntfy as the benchmark runs it (`--vs-ntfy PATH`): the binary at PATH with a generated
 * server.yml in a temp dir, pinned to the server core, stopped with SIGTERM.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onCore, rssBytes, serverCore } from './proc.js';
import type { Target } from './targets.js';

/**
 * ntfy on disk with the tuning its docs give for a busy server such as ntfy.sh (config.md,
 * "Message cache"): WAL, synchronous=normal, writes batched 25 at a time within 1 s. Its
 * visitor limits are raised as far as Tocsin's in `startTocsin` (all load comes from one
 * address); keepalive as Tocsin's, so neither sends keepalives during a run.
 */
export function ntfyConfig(dir: string, port: number): string {
  return `base-url: "http://127.0.0.1:${port}"
listen-http: "127.0.0.1:${port}"
cache-file: "${join(dir, 'cache.db')}"
cache-batch-size: 25
cache-batch-timeout: "1s"
cache-startup-queries: |
  pragma journal_mode = WAL;
  pragma synchronous = normal;
  pragma temp_store = memory;
  pragma busy_timeout = 15000;
global-topic-limit: 100000
keepalive-interval: "45s"
visitor-request-limit-burst: 1000000000
visitor-message-daily-limit: 1000000000
visitor-subscription-limit: 1000000
# ntfy reads sizes up to G: 1024G is the 1T Tocsin gets
visitor-attachment-daily-bandwidth-limit: "1024G"
log-level: warn
`;
}

/** A port no one listens on now (ntfy cannot report the port it chose for `:0`). */
async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (address === null || typeof address === 'string') throw new Error('no free port');
  return address.port;
}

async function healthy(url: string, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    try {
      if ((await fetch(`${url}/v1/health`)).status === 200) return;
    } catch {
      // not listening yet
    }
    if (performance.now() > deadline) throw new Error(`ntfy at ${url} not healthy after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function startNtfy(binary: string): Promise<Target> {
  const dir = mkdtempSync(join(tmpdir(), 'ntfy-bench-'));
  const port = await freePort();
  const config = join(dir, 'server.yml');
  writeFileSync(config, ntfyConfig(dir, port));
  const [command, args] = onCore(serverCore, binary, ['serve', '--config', config]);
  // taskset execs the binary, so the child's pid is ntfy's.
  const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'inherit'] });
  const exited = once(child, 'exit');
  const url = `http://127.0.0.1:${port}`;
  try {
    await Promise.race([healthy(url, 10_000), exited.then(([code]) => Promise.reject(new Error(`ntfy exited with ${String(code)}`)))]);
  } catch (err) {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    name: 'ntfy',
    url,
    ...(child.pid !== undefined && { pid: child.pid }),
    heapUsed: async () => undefined,
    rss: () => rssBytes(child.pid),
    stop: async () => {
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      child.kill('SIGTERM');
      await exited;
      clearTimeout(timer);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
