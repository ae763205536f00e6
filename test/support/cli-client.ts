import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { after } from 'node:test';
import { join } from 'node:path';
import bcrypt from 'bcryptjs';
import type { RawValues } from '../../src/config/load.js';
import { Mailbox } from './clients.js';
import { tempDir } from './server.js';

/** The client tests' server access: phil (password `secret`, token `token`) owns `secret*`, which everyone else is denied. */
export function philAccess(dir: string, token: string): RawValues {
  return {
    'auth-file': join(dir, 'auth.db'),
    'auth-default-access': 'read-write',
    'auth-users': [`phil:${bcrypt.hashSync('secret', 4)}:user`],
    'auth-access': ['phil:secret*:rw', '*:secret*:deny-all'],
    'auth-tokens': [`phil:${token}:cli`],
  };
}

const bin = new URL('../../../bin/tocsin.js', import.meta.url).pathname;

export interface ClientRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The environment of a client child: this one's without NTFY_* variables, and HOME and
 * XDG_CONFIG_HOME in an empty directory, so the user's real client.yml is never read.
 */
export function clientEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const home = tempDir();
  const own = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('NTFY_')));
  return { ...own, HOME: home, XDG_CONFIG_HOME: `${home}/.config`, ...extra };
}

/** `tocsin <args>` to its end; `input` is written to its stdin (a pipe, so "redirected" as ntfy says), then closed. */
export function runClient(args: string[], options: { env?: NodeJS.ProcessEnv; input?: string | Buffer } = {}): Promise<ClientRun> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [bin, ...args], { env: clientEnv(options.env) }, (err, stdout, stderr) =>
      resolve({ code: err ? Number(err.code) : 0, stdout, stderr }),
    );
    child.stdin?.end(options.input ?? '');
  });
}

/** A long-running `tocsin subscribe`: its stdout lines and stderr lines as they come; killed when the test file ends. */
export class ClientProcess {
  readonly stdout = new Mailbox<string>();
  readonly stderr = new Mailbox<string>();
  readonly child: ChildProcess;
  readonly exited: Promise<number | string>;

  constructor(args: string[], env: NodeJS.ProcessEnv = {}) {
    this.child = spawn(process.execPath, [bin, ...args], { env: clientEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    this.exited = new Promise((resolve) => this.child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)));
    lines(this.child.stdout, this.stdout);
    lines(this.child.stderr, this.stderr);
    after(() => this.stop());
  }

  stop(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}

function lines(stream: NodeJS.ReadableStream | null, box: Mailbox<string>): void {
  let buffer = '';
  stream?.setEncoding('utf8');
  stream?.on('data', (chunk: string) => {
    buffer += chunk;
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      box.put(buffer.slice(0, nl));
      buffer = buffer.slice(nl + 1);
    }
  });
  stream?.on('end', () => box.end('stream ended'));
}
