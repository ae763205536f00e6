import type { Command } from 'commander';
import { authenticated, everyone, groupHolder, holderGroup, isBuiltIn, parsePermission, permissionName, topicPatternPattern } from '../model/access.js';
import { adminAction, allUsers, existingUser, fail, say, showUsers, userArg, withAuthOptions, type AuthAdmin } from './auth-admin.js';
import { validName } from './group.js';

const grantedLine: Record<string, string> = {
  'read-write': 'granted read-write access to topic',
  'read-only': 'granted read-only access to topic',
  'write-only': 'granted write-only access to topic',
  'deny-all': 'revoked all access to topic',
};

/**
 * `tocsin access [USER [TOPIC PERMISSION]]`, `tocsin access --reset [USER [TOPIC]]` (ntfy's
 * cmd/access.go); with `--group NAME`, the same for a named group's entries, and with
 * `--group authenticated` for every logged-in user's.
 */
export function registerAccess(program: Command): void {
  withAuthOptions(program.command('access'))
    .description('Grant/revoke access to a topic, or show access')
    .usage('[USER [TOPIC [PERMISSION]]] | --reset [USER [TOPIC]]')
    .argument('[user]')
    .argument('[topic]')
    .argument('[permission]')
    .argument('[extra...]')
    .option('-r, --reset', 'reset access for user (and topic)')
    .option('-g, --group <group>', "a group's access instead of a user's ('authenticated': every logged-in user)")
    .action(
      adminAction(async (admin, first: string | undefined, second: string | undefined, third: string | undefined, extra: string[], _options, command: Command) => {
        const group = command.opts<{ group?: string }>().group;
        // With --group the arguments are TOPIC [PERMISSION]: the group takes the user's place.
        const [username, topic, permission] = group === undefined ? [first, second, third] : [groupArg(group), first, second];
        if (extra.length > 0 || (group !== undefined && third !== undefined)) fail("too many arguments, please check 'tocsin access --help' for usage details");
        const user = userArg(username);
        if (command.opts().reset) {
          if (permission !== undefined) fail("too many arguments, please check 'tocsin access --help' for usage details");
          return reset(admin, user, topic);
        }
        if (permission === undefined) {
          if (topic !== undefined) fail("invalid syntax, please check 'tocsin access --help' for usage details");
          return show(admin, user);
        }
        return grant(admin, user as string, topic as string, permission);
      }),
    );
}

async function grant(admin: AuthAdmin, username: string, topic: string, word: string): Promise<void> {
  const permission = parsePermission(word);
  if (!permission) fail('permission must be one of: read-write, read-only, write-only, or deny (or the aliases: read, ro, write, wo, none)');
  if (!topicPatternPattern.test(topic)) fail(`invalid topic or topic pattern ${topic}: letters, digits, - and _ and * only, up to 64`);
  const store = await admin.store();
  if (!isBuiltIn(username) && holderGroup(username) === undefined) {
    const user = await existingUser(store, username);
    if (user.role === 'admin') fail(`user ${username} is an admin user, access control entries have no effect`);
  }
  await store.allowAccess(username, topic, permission);
  say(`${grantedLine[permissionName(permission)]} ${topic}`);
  say();
  await showUser(admin, username);
}

async function reset(admin: AuthAdmin, username: string | undefined, topic: string | undefined): Promise<void> {
  const store = await admin.store();
  if (username === undefined) {
    await store.resetAccess();
    say('reset access for all users');
    return;
  }
  // ntfy resets first and only then finds the user missing; checking first avoids a "reset" line for nobody.
  await existingHolder(admin, username);
  await store.resetAccess(username, topic);
  say(topic === undefined ? `reset access for user ${username}` : `reset access for user ${username} and topic ${topic}`);
  say();
  await showUser(admin, username);
}

async function show(admin: AuthAdmin, username: string | undefined): Promise<void> {
  if (username === undefined) return showUsers(admin, await allUsers(await admin.store()));
  return showUser(admin, username);
}

async function showUser(admin: AuthAdmin, username: string): Promise<void> {
  if (username === everyone) return showUsers(admin, [{ name: everyone, role: 'anonymous' }]);
  if (username === authenticated || holderGroup(username) !== undefined) {
    await existingHolder(admin, username);
    return showUsers(admin, [{ name: username, role: 'group' }]);
  }
  return showUsers(admin, [await existingUser(await admin.store(), username)]);
}

/** Fails with ntfy's "user X does not exist" or "group X does not exist" unless the holder of entries `name` exists. */
async function existingHolder(admin: AuthAdmin, name: string): Promise<void> {
  const group = holderGroup(name);
  if (group !== undefined && !(await (await admin.store()).groups()).some((g) => g.name === group)) fail(`group ${group} does not exist`);
  if (group === undefined && !isBuiltIn(name)) await existingUser(await admin.store(), name);
}

/** A `--group` name: `authenticated` (or `*authenticated`), every logged-in user, or a named group's. */
function groupArg(name: string): string {
  if (name === 'authenticated' || name === authenticated) return authenticated;
  return groupHolder(validName(name));
}
