import type { Command } from 'commander';
import { ConfigError, loadConfig, type RawValues } from '../config/load.js';
import type { Config } from '../config/schema.js';
import { authenticated, everyone, groupHolder, parsePermission, permissionName, type Permission, type User } from '../model/access.js';
import type { Tier } from '../model/account.js';
import type { AuthStore } from '../store/auth-store.js';
import { openAuthStore } from '../store/index.js';

/**
 * What the admin commands (`user`, `access`, `token`, `tier`) share, in ntfy's shapes:
 * the auth-file comes from `--auth-file` or the server.yml given with `--config` (both
 * after the command word), messages go to stderr, and an error ends the process with
 * its message and exit code 1.
 */
export interface AuthAdmin {
  /** Opened on first call (a database server opens asynchronously); later calls get the same. */
  store(): Promise<AuthStore>;
  readonly defaultAccess: Permission;
  /** base-url of the server.yml, '' when unset. */
  readonly baseUrl: string;
}

/** The user name `everyone` stands for `*` (anonymous visitors), as in ntfy. */
export const everyoneWord = 'everyone';

export function withAuthOptions(command: Command): Command {
  return command
    .option('-c, --config <file>', 'server.yml to read (env TOCSIN_CONFIG_FILE or NTFY_CONFIG_FILE)')
    .option('-H, --auth-file <file>', 'auth database file used for access control')
    .option('-p, --auth-default-access <permission>', 'default permissions if no matching entries in the auth database are found');
}

/**
 * Runs `action`, then closes the auth-file if the action opened it. The store opens on
 * first use, so bad arguments are reported before a missing auth-file (ntfy's order) and
 * `user hash` needs none. Any failure ends the process with its message and exit code 1,
 * after the store is closed.
 */
export function adminAction<A extends unknown[]>(action: (admin: AuthAdmin, ...args: A) => Promise<void>) {
  return async (...args: A): Promise<void> => {
    const command = args[args.length - 1] as Command;
    const admin = new LazyAdmin(command.optsWithGlobals());
    let failure: string | undefined;
    try {
      await action(admin, ...args);
    } catch (err) {
      failure = err instanceof Error ? err.message : String(err);
    }
    await admin.close();
    if (failure === undefined) return;
    process.stderr.write(`${failure}\n`);
    // exit rather than exitCode: a password prompt may still hold stdin open.
    process.exit(1);
  };
}

export function say(line = ''): void {
  process.stderr.write(`${line}\n`);
}

/** A failure with ntfy's message; adminAction prints it and exits with code 1. */
class CliError extends Error {}

export function fail(message: string): never {
  throw new CliError(message);
}

class LazyAdmin implements AuthAdmin {
  private config?: Config;
  private opening?: Promise<AuthStore>;

  constructor(private readonly options: Record<string, string | undefined>) {}

  store(): Promise<AuthStore> {
    this.opening ??= openAuthStore(this.loaded());
    return this.opening;
  }

  get defaultAccess(): Permission {
    return parsePermission(this.loaded().authDefaultAccess) as Permission;
  }

  get baseUrl(): string {
    return this.loaded().baseUrl;
  }

  async close(): Promise<void> {
    // An opening that failed has nothing to close; its error reached the action already.
    await (await this.opening?.catch(() => undefined))?.close();
  }

  private loaded(): Config {
    this.config ??= load(this.options);
    return this.config;
  }
}

function load(options: Record<string, string | undefined>): Config {
  const flags: RawValues = {};
  if (options.authFile) flags['auth-file'] = options.authFile;
  if (options.authDefaultAccess) flags['auth-default-access'] = options.authDefaultAccess;
  const file = options.config ?? process.env.TOCSIN_CONFIG_FILE ?? process.env.NTFY_CONFIG_FILE;
  try {
    return loadConfig({ file, env: process.env, flags }).config;
  } catch (err) {
    if (err instanceof ConfigError && /auth-default-access/.test(err.message)) {
      throw new Error("if set, auth-default-access must start set to 'read-write', 'read-only', 'write-only' or 'deny-all'");
    }
    throw err;
  }
}

/** `NAME` as the commands take it: `everyone` and `*` are anonymous visitors. */
export function userArg(name: string | undefined): string | undefined {
  return name === everyoneWord ? everyone : name;
}

/** The user, or ntfy's "user X does not exist". */
export async function existingUser(store: AuthStore, name: string): Promise<User> {
  const user = await store.user(name);
  if (!user) throw new Error(`user ${name} does not exist`);
  return user;
}

const grantLine: Record<string, string> = {
  'read-write': 'read-write access to topic',
  'read-only': 'read-only access to topic',
  'write-only': 'write-only access to topic',
  'deny-all': 'no access to topic',
};

const defaultLine: Record<string, string> = {
  'read-write': 'read-write access to all (other) topics (server config)',
  'read-only': 'read-only access to all (other) topics (server config)',
  'write-only': 'write-only access to all (other) topics (server config)',
  'deny-all': 'no access to any (other) topics (server config)',
};

/** ntfy's showUsers: each user, role and tier, then their entries; everyone also shows the default. */
export async function showUsers(admin: AuthAdmin, users: readonly Listed[]): Promise<void> {
  for (const u of users) {
    say(`user ${u.name} (role: ${u.role}, tier: ${u.tier?.name ?? 'none'})`);
    const grants = await (await admin.store()).grants(u.name);
    if (u.role === 'admin') say('- read-write access to all topics (admin role)');
    else if (grants.length === 0) say('- no topic-specific permissions');
    for (const g of u.role === 'admin' ? [] : grants) say(`- ${grantLine[permissionName(g.permission)]} ${g.topic}`);
    if (u.name === everyone) say(`- ${defaultLine[permissionName(admin.defaultAccess)]}`);
  }
}

/**
 * Every user as ntfy lists them: admins, then everyone (`*`, role anonymous), then the
 * logged-in users' group when it has entries, then the named groups (Tocsin's own, so
 * ntfy's listing is unchanged without them), then users.
 */
export async function allUsers(store: AuthStore): Promise<Listed[]> {
  const [users, groupGrants, named] = await Promise.all([store.users(), store.grants(authenticated), store.groups()]);
  const admins = users.filter((u) => u.role === 'admin');
  const builtIn = groupGrants.length > 0 ? [{ name: authenticated, role: 'group' }] : [];
  const groups = named.map((g) => ({ name: groupHolder(g.name), role: 'group' }));
  return [...admins, { name: everyone, role: 'anonymous' }, ...builtIn, ...groups, ...users.filter((u) => u.role !== 'admin')];
}

/** A user as listed; `*` has the role `anonymous`, which no stored user has. */
export interface Listed {
  name: string;
  role: string;
  tier?: Tier;
}
