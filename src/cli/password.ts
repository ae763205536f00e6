import bcrypt from 'bcryptjs';
import { bcryptCost } from '../model/access.js';
import { stdinLines } from './stdin-lines.js';

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
