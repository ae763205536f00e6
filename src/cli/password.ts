import bcrypt from 'bcryptjs';
import { bcryptCost } from '../model/access.js';
import { say } from './auth-admin.js';

/**
 * The bcrypt hash of a new password, as ntfy's `user add` and `user change-pass` take it:
 * `TOCSIN_PASSWORD_HASH`/`NTFY_PASSWORD_HASH` as is, else `TOCSIN_PASSWORD`/`NTFY_PASSWORD`,
 * else typed twice at a prompt (not echoed on a terminal).
 */
export async function newPasswordHash(): Promise<string> {
  const hash = process.env.TOCSIN_PASSWORD_HASH ?? process.env.NTFY_PASSWORD_HASH;
  if (hash) return hash;
  const password = process.env.TOCSIN_PASSWORD || process.env.NTFY_PASSWORD || (await promptTwice());
  return bcrypt.hash(password, bcryptCost);
}

async function promptTwice(): Promise<string> {
  const lines = stdinLines();
  process.stderr.write('password: ');
  const password = await lines.next();
  if (!password) throw new Error('password cannot be empty');
  process.stderr.write(`\r${' '.repeat(25)}\rconfirm: `);
  const confirm = await lines.next();
  process.stderr.write(`\r${' '.repeat(25)}\r`);
  lines.close();
  if (confirm !== password) throw new Error('passwords do not match: try it again, but this time type slooowwwlly');
  return password;
}

/** Lines typed on stdin; on a terminal in raw mode, so nothing typed is shown. */
export function stdinLines(): { next(): Promise<string>; close(): void } {
  const stdin = process.stdin;
  if (stdin.isTTY) stdin.setRawMode(true);
  let buffered = '';
  let waiting: ((line: string) => void) | undefined;
  const deliver = (): void => {
    const end = buffered.search(/[\r\n]/);
    if (end < 0 || !waiting) return;
    const line = buffered.slice(0, end);
    buffered = buffered.slice(end + (buffered.startsWith('\r\n', end) ? 2 : 1));
    const resolve = waiting;
    waiting = undefined;
    resolve(line);
  };
  const onData = (chunk: Buffer): void => {
    if (chunk.includes(3)) {
      say(); // Ctrl-C in raw mode
      process.exit(130);
    }
    buffered += chunk.toString('utf8');
    deliver();
  };
  stdin.on('data', onData);
  stdin.once('end', () => {
    buffered += '\n';
    deliver();
  });
  return {
    next: () =>
      new Promise<string>((resolve) => {
        waiting = resolve;
        deliver();
      }),
    close: () => {
      stdin.off('data', onData);
      if (stdin.isTTY) stdin.setRawMode(false);
      stdin.pause();
    },
  };
}
