import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, type Tags } from 'yaml';
import { ClientError, openError } from './client-error.js';

/** One entry of client.yml's `subscribe:` list. Undefined and "" differ for credentials, as in ntfy. */
export interface ConfigSubscription {
  topic: string;
  user?: string;
  password?: string;
  token?: string;
  command: string;
  /** Query filters (`priority`, `tags`, `title`, `message`), sent as given. */
  if: Record<string, string>;
}

/** client.yml, with ntfy's keys and defaults (client/config.go). */
export interface ClientConfig {
  defaultHost: string;
  defaultUser: string;
  defaultPassword?: string;
  defaultToken: string;
  defaultCommand: string;
  subscribe: ConfigSubscription[];
}

export const defaultHost = 'https://ntfy.sh';

export function emptyConfig(): ClientConfig {
  return { defaultHost, defaultUser: '', defaultToken: '', defaultCommand: '', subscribe: [] };
}

/**
 * Where ntfy looks for client.yml when `--config` is not given: /etc/ntfy/client.yml for
 * root, else ntfy/client.yml in Go's os.UserConfigDir ($XDG_CONFIG_HOME, else ~/.config).
 */
export function defaultConfigFile(env: NodeJS.ProcessEnv, uid: number): string | undefined {
  if (uid === 0) return '/etc/ntfy/client.yml';
  const dir = env.XDG_CONFIG_HOME || (env.HOME ? join(env.HOME, '.config') : undefined);
  return dir === undefined ? undefined : join(dir, 'ntfy', 'client.yml');
}

/** The config from `file` (which must exist), else from the default file if there is one, else the defaults. */
export function loadClientConfig(file: string | undefined, env: NodeJS.ProcessEnv = process.env, uid = process.getuid?.() ?? -1): ClientConfig {
  if (file !== undefined && file !== '') return parseClientConfig(readConfig(file), file);
  const fallback = defaultConfigFile(env, uid);
  return fallback !== undefined && existsSync(fallback) ? parseClientConfig(readConfig(fallback), fallback) : emptyConfig();
}

function readConfig(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw openError(file, err);
  }
}

/** client.yml's text as a config; a key of the wrong shape is an error naming it. */
export function parseClientConfig(text: string, file = 'client.yml'): ClientConfig {
  let doc: unknown;
  try {
    doc = parse(text, { customTags: textScalars, logLevel: 'error' }) ?? {};
  } catch (err) {
    throw new ClientError(`${file}: ${(err as Error).message.split('\n')[0]}`);
  }
  const raw = record(doc, file);
  const config = emptyConfig();
  config.defaultHost = scalar(raw['default-host'], `${file}: default-host`) ?? defaultHost;
  config.defaultUser = scalar(raw['default-user'], `${file}: default-user`) ?? '';
  const password = scalar(raw['default-password'], `${file}: default-password`);
  if (password !== undefined) config.defaultPassword = password;
  config.defaultToken = scalar(raw['default-token'], `${file}: default-token`) ?? '';
  config.defaultCommand = scalar(raw['default-command'], `${file}: default-command`) ?? '';
  const list = raw.subscribe ?? [];
  if (!Array.isArray(list)) throw new ClientError(`${file}: subscribe must be a list`);
  config.subscribe = list.map((entry: unknown, i) => subscription(entry, `${file}: subscribe[${i}]`));
  return config;
}

function subscription(entry: unknown, where: string): ConfigSubscription {
  const raw = record(entry, where);
  const topic = scalar(raw.topic, `${where}.topic`);
  if (!topic) throw new ClientError(`${where}: topic missing`);
  const filters = record(raw.if ?? {}, `${where}.if`);
  return {
    topic,
    user: scalar(raw.user, `${where}.user`),
    password: scalar(raw.password, `${where}.password`),
    token: scalar(raw.token, `${where}.token`),
    command: scalar(raw.command, `${where}.command`) ?? '',
    if: Object.fromEntries(Object.entries(filters).map(([key, value]) => [key, filterValue(value, `${where}.if.${key}`)])),
  };
}

/**
 * YAML's tags minus booleans and numbers, so `password: 0123` stays "0123": yaml.v2 reads
 * a scalar into ntfy's string fields as written.
 */
function textScalars(tags: Tags): Tags {
  return tags.filter((tag) => typeof tag === 'string' || !/bool|int|float/.test(tag.tag));
}

function record(value: unknown, where: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new ClientError(`${where} must be a mapping`);
  return value as Record<string, unknown>;
}

/** A scalar's text; undefined when absent or null (`default-password:` with no value), "" when `""`. */
function scalar(value: unknown, where: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  throw new ClientError(`${where} must be a string`);
}

/** A filter's value; a list is taken as ntfy's comma-separated form (`tags: [a, b]` = `a,b`). */
function filterValue(value: unknown, where: string): string {
  if (Array.isArray(value)) return value.map((v, i) => scalar(v, `${where}[${i}]`) ?? '').join(',');
  return scalar(value, where) ?? '';
}
