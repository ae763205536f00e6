import { stdinLines } from '../stdin-lines.js';
import type { ClientConfig, ConfigSubscription } from './client-config.js';
import { ClientError } from './client-error.js';

/** An Authorization header value, or undefined to send none. */
export type Authorization = string | undefined;

export function basicAuth(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

export function bearerAuth(token: string): string {
  return `Bearer ${token}`;
}

/**
 * The credentials of a `publish`/`subscribe` run, in ntfy's order: `--token`, `--user
 * name[:password]` (the password typed at a prompt when left out), then client.yml's
 * default-token, then default-user with default-password.
 */
export async function commandAuth(flags: { user?: string; token?: string }, config: ClientConfig): Promise<Authorization> {
  if (flags.user && flags.token) throw new ClientError('cannot set both --user and --token');
  if (flags.token) return bearerAuth(flags.token);
  if (flags.user) {
    const colon = flags.user.indexOf(':');
    if (colon >= 0) return basicAuth(flags.user.slice(0, colon), flags.user.slice(colon + 1));
    return basicAuth(flags.user, await promptPassword());
  }
  return defaultAuth(config);
}

function defaultAuth(config: ClientConfig): Authorization {
  if (config.defaultToken) return bearerAuth(config.defaultToken);
  if (config.defaultUser && config.defaultPassword !== undefined) return basicAuth(config.defaultUser, config.defaultPassword);
  return undefined;
}

/**
 * A client.yml subscription's credentials (ntfy's maybeAddAuthHeader): an explicit empty
 * token, or empty user and password, sends none; then its token, its user and password,
 * then the config's defaults. `fallback` is what the command line set, used when none of
 * these apply.
 */
export function subscriptionAuth(s: ConfigSubscription, config: ClientConfig, fallback: Authorization): Authorization {
  if (s.token === '' || (s.user === '' && s.password === '')) return undefined;
  if (s.token) return bearerAuth(s.token);
  if (s.user && s.password !== undefined) return basicAuth(s.user, s.password);
  return defaultAuth(config) ?? fallback;
}

/**
 * "Enter Password: " on stderr, then one line from stdin: unechoed on a terminal (where
 * an empty one is refused), read as is from a pipe, as ntfy's util.ReadPassword does.
 */
async function promptPassword(): Promise<string> {
  const lines = stdinLines(); // first: a terminal stops echoing before the prompt shows
  process.stderr.write('Enter Password: ');
  const password = await lines.next();
  lines.close();
  process.stderr.write(`\r${' '.repeat(20)}\r`);
  if (process.stdin.isTTY && password === '') throw new ClientError('password cannot be empty');
  return password;
}
