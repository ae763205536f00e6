import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HttpLoad, HttpLoadResult } from './autocannon.js';

/** wrk's Lua: POST a small body to one topic or to random topics out of `TOPICS`, with `AUTHORIZATION` if set. */
const script = `
wrk.method = "POST"
wrk.body = "bench publish"
local topics = tonumber(os.getenv("TOPICS") or "1")
local authorization = os.getenv("AUTHORIZATION") or ""
if authorization ~= "" then wrk.headers["Authorization"] = authorization end
if topics == 1 then
  -- no request function: wrk builds the request once and resends it, keeping the client fast
  wrk.path = "/bench"
else
  request = function() return wrk.format(nil, "/bench" .. math.random(0, topics - 1)) end
end
`;

function ms(value: string, unit: string): number {
  return Number(value) * ({ us: 0.001, ms: 1, s: 1000 }[unit] ?? 1);
}

/**
 * Maximum publish throughput with wrk (C, one thread, on the load core): autocannon
 * saturates its core below the bare-uWS ceiling (DESIGN.md), wrk does not.
 */
export function runWrk(load: HttpLoad): Promise<HttpLoadResult> {
  return runWrkScript(load, script, { TOPICS: String(load.topics), AUTHORIZATION: load.authorization ?? '' });
}

/** wrk with its own Lua `script` (reading `env`); also how many requests it sent. */
export function runWrkScript(load: HttpLoad, lua: string, env: Record<string, string>): Promise<HttpLoadResult & { requests: number }> {
  const file = join(mkdtempSync(join(tmpdir(), 'tocsin-wrk-')), 'post.lua');
  writeFileSync(file, lua);
  const args = ['-c', '1', 'wrk', '-t1', `-c${load.connections}`, `-d${load.durationSeconds}s`, '--latency', '-s', file, load.url];
  return new Promise((resolve, reject) => {
    execFile('taskset', args, { env: { ...process.env, ...env } }, (err, stdout) => {
      if (err) return reject(err);
      const requests = /(\d+) requests in/.exec(stdout)?.[1];
      const rps = /Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1];
      const p50 = /^\s+50%\s+([\d.]+)(us|ms|s)[ \t]*$/m.exec(stdout);
      const p99 = /^\s+99%\s+([\d.]+)(us|ms|s)[ \t]*$/m.exec(stdout);
      const errors = /Non-2xx or 3xx responses: (\d+)/.exec(stdout)?.[1];
      if (!rps || !p50 || !p99 || !requests) return reject(new Error(`cannot read wrk output: ${stdout}`));
      resolve({ requests: Number(requests), rps: Number(rps), p50: ms(p50[1] as string, p50[2] as string), p99: ms(p99[1] as string, p99[2] as string), errors: Number(errors ?? 0) });
    });
  });
}

export function hasWrk(): Promise<boolean> {
  return new Promise((resolve) => execFile('wrk', ['--version'], (err, stdout, stderr) => resolve(/wrk/.test(`${stdout}${stderr}`) || !err)));
}
