import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { pino, type Logger } from 'pino';
import { loadConfig, type RawValues } from '../../src/config/load.js';
import { startServer, type RunningServer, type Surroundings } from '../../src/server.js';

export interface TestServer {
  url: string;
  port: number;
  server: RunningServer;
}

/**
 * A real server on a free 127.0.0.1 port in this process, logging to `log` (a LogCapture's
 * logger to read what it logs), with `surroundings` as test doubles when given. Call it from a top-level
 * `before` and close it in a top-level `after` (a hook registered inside `before` would
 * run as soon as `before` ends).
 */
export async function startTestServer(settings: RawValues = {}, log: Logger = pino({ level: process.env.TEST_LOG ?? 'silent' }), surroundings?: Surroundings): Promise<TestServer> {
  const { config } = loadConfig({ flags: { 'listen-http': '127.0.0.1:0', ...unlimited, ...settings } });
  const server = await startServer(config, log, surroundings);
  return { url: `http://127.0.0.1:${server.port}`, port: server.port, server };
}

/**
 * Every test talks from 127.0.0.1, so ntfy's default visitor limits (60 requests at once,
 * one per 5 s) would stop most of them; tests of the limits set their own.
 */
const unlimited: RawValues = {
  'visitor-request-limit-burst': 1_000_000,
  'visitor-message-daily-limit': 1_000_000_000,
  'visitor-subscription-limit': 1_000_000,
  'visitor-attachment-daily-bandwidth-limit': '1T',
  'visitor-topic-creation-limit-burst': 0,
};

/** A temp directory removed when the test file ends. */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tocsin-test-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export interface ChildServer {
  url: string;
  child: ChildProcess;
  /** Resolves with the exit code (or signal name) once the process ended. */
  exited: Promise<number | string>;
}

const bin = new URL('../../../bin/tocsin.js', import.meta.url).pathname;

/**
 * `tocsin serve` in its own process (for SIGKILL and restart tests); resolves when it listens.
 * `onSpawn` sees the process before then (to watch what it opens).
 */
export function spawnServer(args: string[], env: NodeJS.ProcessEnv = {}, onSpawn?: (child: ChildProcess) => void): Promise<ChildServer> {
  const defaults = Object.entries(unlimited).flatMap(([key, value]) => [`--${key}`, String(value)]);
  const child = spawn(process.execPath, [bin, 'serve', '--listen-http', '127.0.0.1:0', '--log-format', 'json', ...defaults, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  onSpawn?.(child);
  after(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return new Promise((resolve, reject) => {
    let stderr = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      stderr += chunk;
      const port = /"port":(\d+)/.exec(stderr)?.[1];
      if (port) resolve({ url: `http://127.0.0.1:${port}`, child, exited });
    });
    void exited.then((code) => reject(new Error(`server exited (${code}) before listening: ${stderr}`)));
  });
}

/** `tocsin serve` expected to stop at startup: resolves with its exit code and stderr once it ended. */
export function serveUntilExit(args: string[]): Promise<{ code: number | string; stderr: string }> {
  const child = spawn(process.execPath, [bin, 'serve', '--listen-http', '127.0.0.1:0', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => (stderr += chunk));
  after(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return new Promise((resolve) => child.once('close', (code, signal) => resolve({ code: code ?? signal ?? -1, stderr })));
}
