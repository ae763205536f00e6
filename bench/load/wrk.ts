import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCore, onCore } from '../proc.js';
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

/**
 * wrk's Lua for the cluster scenario: POSTs to `/bench`, or to random topics `/bench0` to
 * `/bench<TOPICS-1>`, and writes the id of every acknowledged publish (a 200's JSON) to
 * `IDS_FILE`, one a line, so the subscribers can be checked for each of them. wrk's exit
 * flushes the file.
 */
const idsScript = `
wrk.method = "POST"
wrk.body = "bench publish"
local topics = tonumber(os.getenv("TOPICS") or "1")
if topics == 1 then
  wrk.path = "/bench"
else
  request = function() return wrk.format(nil, "/bench" .. math.random(0, topics - 1)) end
end
local file
function init(args)
  file = assert(io.open(os.getenv("IDS_FILE"), "w"))
end
function response(status, headers, body)
  if status == 200 then
    local id = body:match('"id":"([^"]+)"')
    if id then file:write(id, "\\n") end
  end
end
`;

/** wrk's time units (its `units.c`): a slow server's latencies come in seconds or minutes. */
const msPerUnit: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** A wrk latency such as `812.00us`, `4.31ms`, `1.59s` or `1.20m`, in milliseconds. */
export function latencyMs(text: string): number {
  const match = /^([\d.]+)(us|ms|s|m|h)$/.exec(text.trim());
  const factor = match ? msPerUnit[match[2] as string] : undefined;
  if (!match || factor === undefined) throw new Error(`cannot read wrk latency ${JSON.stringify(text)}`);
  return Number(match[1]) * factor;
}

/** Reads wrk's `--latency` report; throws with the output when a line is missing. */
export function parseWrk(stdout: string): HttpLoadResult & { requests: number } {
  const requests = /(\d+) requests in/.exec(stdout)?.[1];
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1];
  const p50 = /^\s+50%\s+(\S+)\s*$/m.exec(stdout)?.[1];
  const p99 = /^\s+99%\s+(\S+)\s*$/m.exec(stdout)?.[1];
  const errors = /Non-2xx or 3xx responses: (\d+)/.exec(stdout)?.[1];
  if (!rps || !p50 || !p99 || !requests) throw new Error(`cannot read wrk output: ${stdout}`);
  return { requests: Number(requests), rps: Number(rps), p50: latencyMs(p50), p99: latencyMs(p99), errors: Number(errors ?? 0) };
}

/**
 * Maximum publish throughput with wrk (C, one thread, on the load core): autocannon
 * saturates its core below the bare-uWS ceiling (DESIGN.md), wrk does not.
 */
export function runWrk(load: HttpLoad): Promise<HttpLoadResult> {
  return runWrkScript(load, script, { TOPICS: String(load.topics), AUTHORIZATION: load.authorization ?? '' });
}

/** wrk publishing to `/bench`, the acknowledged publishes' ids written to `idsFile`. */
export function runWrkRecordingIds(load: Omit<HttpLoad, 'rate'>, idsFile: string): Promise<HttpLoadResult & { requests: number }> {
  return runWrkScript({ ...load, rate: 0 }, idsScript, { IDS_FILE: idsFile, TOPICS: String(load.topics) });
}

/** wrk with its own Lua `script` (reading `env`); also how many requests it sent. */
export function runWrkScript(load: HttpLoad, lua: string, env: Record<string, string>): Promise<HttpLoadResult & { requests: number }> {
  const file = join(mkdtempSync(join(tmpdir(), 'tocsin-wrk-')), 'post.lua');
  writeFileSync(file, lua);
  const [command, args] = onCore(loadCore, 'wrk', ['-t1', `-c${load.connections}`, `-d${load.durationSeconds}s`, '--latency', '-s', file, load.url]);
  return new Promise((resolve, reject) => {
    execFile(command, args, { env: { ...process.env, ...env } }, (err, stdout) => {
      if (err) return reject(err);
      try {
        resolve(parseWrk(stdout));
      } catch (e) {
        reject(e as Error);
      }
    });
  });
}

export function hasWrk(): Promise<boolean> {
  return new Promise((resolve) => execFile('wrk', ['--version'], (err, stdout, stderr) => resolve(/wrk/.test(`${stdout}${stderr}`) || !err)));
}
