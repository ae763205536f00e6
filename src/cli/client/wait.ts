import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { goDuration } from '../go-format.js';
import { ClientError } from './client-error.js';

// ntfy checks every 500 ms whether the process of `--wait-pid` is still there.
const pidPollMs = 500;

/** Whether a process with this id exists (EPERM: it does, but belongs to another user). */
export function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Waits for process `pid` to end; the message is ntfy's "Process with PID 8458 exited after 2.003s". */
export async function waitForProcess(pid: number): Promise<string> {
  if (!processExists(pid)) throw new ClientError(`process with PID ${pid} not running`);
  const start = performance.now();
  while (processExists(pid)) await sleep(pidPollMs);
  return `Process with PID ${pid} exited after ${elapsed(start)}`;
}

/**
 * Runs `command` (its output discarded, as ntfy does outside trace logging) and returns
 * ntfy's message: "Command succeeded after 56.553s: rsync -av ./ /tmp/a" or "Command
 * failed after 1.2s (exit code 23): ...". A command that cannot start is an error.
 */
export function runAndWait(command: readonly string[]): Promise<string> {
  const pretty = quoteCommand(command);
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command[0] as string, command.slice(1), { stdio: 'ignore' });
    child.once('error', (err) => reject(new ClientError(`command failed: ${pretty}, error: ${err.message}`)));
    child.once('exit', (code, signal) => {
      if (code === 0) resolve(`Command succeeded after ${elapsed(start)}: ${pretty}`);
      // Go's ExitCode() is -1 for a process ended by a signal.
      else resolve(`Command failed after ${elapsed(start)} (exit code ${signal ? -1 : code}): ${pretty}`);
    });
  });
}

/** ntfy's util.QuoteCommand: arguments with anything but [-_./:@a-zA-Z0-9] in double quotes. */
export function quoteCommand(command: readonly string[]): string {
  return command.map((arg) => (/^[-_./:@a-zA-Z0-9]+$/.test(arg) ? arg : `"${arg}"`)).join(' ');
}

function elapsed(start: number): string {
  return goDuration((performance.now() - start) / 1000);
}
