import type { Command } from 'commander';
import { everyone, newToken } from '../model/access.js';
import { parseFutureTime } from '../model/future-time.js';
import { HttpError } from '../model/errors.js';
import { nowSeconds } from '../model/message.js';
import { maxTokenScopes, parseScopeFlag, scopesJson, type TokenScope } from '../model/token-scope.js';
import { adminAction, everyoneWord, existingUser, fail, say, withAuthOptions } from './auth-admin.js';
import { rfc822, unixDate } from './go-format.js';

/** `tocsin token add|remove|list` (ntfy's cmd/token.go). */
export function registerToken(program: Command): void {
  const token = withAuthOptions(program.command('token')).description('Create, list or delete user tokens').usage('[list|add|remove] ...');

  token
    .command('add')
    .alias('a')
    .description('Create a new token')
    .argument('[username]')
    .option('-e, --expires <when>', 'token expires after this time (e.g. 30d, 2025-01-01, tomorrow)')
    .option('-l, --label <label>', 'token label')
    .option('-s, --scope <topic:permission>', 'limit the token to this topic or pattern (repeatable, e.g. deploys:wo)', (flag: string, earlier: string[]) => [...earlier, flag], [])
    .action(
      adminAction(async (admin, name: string | undefined, options: { expires?: string; label?: string; scope: string[] }) => {
        const username = validName(name, "username expected, type 'tocsin token add --help' for help");
        const expires = options.expires === undefined ? 0 : futureSeconds(options.expires);
        const scopes = scopesOf(options.scope);
        const store = await admin.store();
        await existingUser(store, username);
        const value = newToken();
        await store.addToken(username, { token: value, label: options.label ?? '', expires, lastAccess: nowSeconds(), lastOrigin: '', ...(scopes && { scopes }) });
        say(`token ${value} created for user ${username}, ${expires === 0 ? 'never expires' : `expires ${unixDate(new Date(expires * 1000))}`}${scopes ? `, limited to ${scopesText(scopes)}` : ''}`);
      }),
    );

  token
    .command('remove')
    .aliases(['del', 'rm'])
    .description('Removes a token')
    .argument('[username]')
    .argument('[token]')
    .action(
      adminAction(async (admin, name: string | undefined, value: string | undefined) => {
        const problem = "username and token expected, type 'tocsin token remove --help' for help";
        const username = validName(value ? name : undefined, problem);
        const store = await admin.store();
        await existingUser(store, username);
        if (!(await store.removeToken(username, value as string))) fail(`token ${value as string} for user ${username} does not exist`);
        say(`token ${value as string} for user ${username} removed`);
      }),
    );

  token
    .command('list')
    .aliases(['l', 'ls'])
    .description('Shows a list of tokens')
    .argument('[username]')
    .action(
      adminAction(async (admin, name: string | undefined) => {
        const store = await admin.store();
        const users = name === undefined ? await store.users() : [await existingUser(store, validName(name, ''))];
        let listed = 0;
        for (const user of users) {
          const tokens = await store.tokens(user.name);
          if (tokens.length === 0 && name !== undefined) return say(`user ${name} has no access tokens`);
          if (tokens.length === 0) continue;
          listed++;
          say(`user ${user.name}`);
          for (const t of tokens) {
            const label = t.label ? ` (${t.label})` : '';
            const expires = t.expires === 0 ? 'never expires' : `expires ${rfc822(new Date(t.expires * 1000))}`;
            const scopes = t.scopes ? `, limited to ${scopesText(t.scopes)}` : '';
            say(`- ${t.token}${label}, ${expires}, accessed from ${t.lastOrigin || '0.0.0.0'} at ${rfc822(new Date(t.lastAccess * 1000))}${scopes}`);
          }
        }
        if (listed === 0) say('no users with tokens');
      }),
    );
}

function validName(name: string | undefined, missing: string): string {
  if (!name) fail(missing);
  if (name === everyone || name === everyoneWord) fail('username not allowed');
  return name;
}

/** `--expires` as ntfy's util.ParseFutureTime reads it, in Unix seconds. */
function futureSeconds(when: string): number {
  try {
    return Math.floor(parseFutureTime(when, new Date()).getTime() / 1000);
  } catch {
    fail(`invalid expiry ${JSON.stringify(when)}: use a duration (30d, 12h), a date or a Unix time`);
  }
}

/** `--scope` flags as scopes (none given: an unscoped token), bounded as the API bounds them. */
function scopesOf(flags: readonly string[]): TokenScope[] | undefined {
  if (flags.length === 0) return undefined;
  if (flags.length > maxTokenScopes) fail(`at most ${maxTokenScopes} scopes per token`);
  return flags.map((flag) => {
    try {
      return parseScopeFlag(flag);
    } catch (err) {
      if (err instanceof HttpError) fail(`invalid scope ${JSON.stringify(flag)}: use TOPIC:PERMISSION, e.g. deploys:write-only (${err.error})`);
      throw err;
    }
  });
}

function scopesText(scopes: readonly TokenScope[]): string {
  return scopesJson(scopes).map((s) => `${s.topic} (${s.permission})`).join(', ');
}
