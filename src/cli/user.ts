import type { Command } from 'commander';
import { everyone, isRole, roleRule, usernamePattern, type Role } from '../model/access.js';
import { landingPaths, newMagicLink } from '../model/magic-link.js';
import { nowSeconds } from '../model/message.js';
import { AlreadyExists } from '../store/auth-store.js';
import { adminAction, allUsers, everyoneWord, existingUser, fail, say, showUsers, withAuthOptions } from './auth-admin.js';
import { newPasswordHash } from './password.js';
import { tierCodePattern } from '../model/tier-limits.js';

/** `tocsin user add|remove|change-pass|change-role|change-tier|reset-pass|list` (ntfy's cmd/user.go). */
export function registerUser(program: Command): void {
  const user = withAuthOptions(program.command('user'))
    .description('Manage/show users')
    .usage('[list|add|remove|change-pass|change-role|change-tier] ...');

  user
    .command('add')
    .alias('a')
    .description('Adds a new user (password from TOCSIN_PASSWORD / NTFY_PASSWORD, or typed)')
    .argument('[username]')
    .option('-r, --role <role>', 'user role', 'user')
    .option('--ignore-exists', 'if the user already exists, perform no action and exit')
    .action(
      adminAction(async (admin, name: string | undefined, options: { role: string; ignoreExists?: boolean }) => {
        const username = validName(name, 'add');
        const role = validRole(options.role);
        const store = await admin.store();
        if (await store.user(username)) {
          if (!options.ignoreExists) fail(`user ${username} already exists`);
          return say(`user ${username} already exists (exited successfully)`);
        }
        try {
          await store.addUser(username, await newPasswordHash(), role);
        } catch (err) {
          if (err instanceof AlreadyExists) fail(`user ${username} already exists`);
          throw err;
        }
        say(`user ${username} added with role ${role}`);
      }),
    );

  user
    .command('remove')
    .aliases(['del', 'rm'])
    .description('Removes a user')
    .argument('[username]')
    .action(
      adminAction(async (admin, name: string | undefined) => {
        const username = validName(name, 'del');
        const store = await admin.store();
        await existingUser(store, username);
        await store.removeUser(username);
        say(`user ${username} removed`);
      }),
    );

  user
    .command('change-pass')
    .alias('chp')
    .description("Changes a user's password")
    .argument('[username]')
    .action(
      adminAction(async (admin, name: string | undefined) => {
        const username = validName(name, 'change-pass');
        const store = await admin.store();
        await existingUser(store, username);
        await store.changePassword(username, await newPasswordHash());
        say(`changed password for user ${username}`);
      }),
    );

  user
    .command('change-role')
    .alias('chr')
    .description('Changes the role of a user')
    .argument('[username]')
    .argument('[role]')
    .action(
      adminAction(async (admin, name: string | undefined, roleWord: string | undefined) => {
        if (!name || !roleWord) fail("username and new role expected, type 'tocsin user change-role --help' for help");
        const username = validName(name, 'change-role');
        const role = validRole(roleWord);
        const store = await admin.store();
        await existingUser(store, username);
        await store.changeRole(username, role);
        say(`changed role for user ${username} to ${role}`);
      }),
    );

  user
    .command('change-tier')
    .alias('cht')
    .description('Changes the tier of a user')
    .argument('[username]')
    .argument('[tier]', 'tier code, or - to reset')
    .action(
      adminAction(async (admin, name: string | undefined, tier: string | undefined) => {
        if (!name || !tier) fail("username and new tier expected, type 'tocsin user change-tier --help' for help");
        if (tier !== '-' && !tierCodePattern.test(tier)) fail('invalid tier, must be tier code, or - to reset');
        const username = validName(name, 'change-tier');
        const store = await admin.store();
        await existingUser(store, username);
        if (tier === '-') {
          await store.changeTier(username, undefined);
          return say(`removed tier from user ${username}`);
        }
        if (!(await store.tier(tier))) fail(`tier ${tier} does not exist`);
        await store.changeTier(username, tier);
        say(`changed tier for user ${username} to ${tier}`);
      }),
    );

  user
    .command('reset-pass')
    .description("Prints a link (with base-url; else its token) that sets a new password for a user within an hour, no mail needed (ntfy 2.25)")
    .argument('[username]')
    .action(
      adminAction(async (admin, name: string | undefined) => {
        const username = validName(name, 'reset-pass');
        const store = await admin.store();
        if ((await existingUser(store, username)).provisioned) fail('cannot change or delete provisioned user');
        const { token, link } = newMagicLink('password-reset', username, '', nowSeconds());
        await store.addMagicLink(link);
        process.stdout.write(`${admin.baseUrl ? `${admin.baseUrl}${landingPaths['password-reset']}${token}` : token}\n`);
        say(`password reset link for user ${username} created, valid for 1 hour`);
      }),
    );

  // For auth-users in server.yml: never opens the auth-file.
  user
    .command('hash')
    .description('Prints the bcrypt hash of a password (typed, or TOCSIN_PASSWORD / NTFY_PASSWORD), for auth-users')
    .action(
      adminAction(async () => {
        process.stdout.write(`${await newPasswordHash()}\n`);
      }),
    );

  user
    .command('list')
    .aliases(['l', 'ls'])
    .description('Shows a list of users')
    .action(adminAction(async (admin) => showUsers(admin, await allUsers(await admin.store()))));
}

function validName(name: string | undefined, command: string): string {
  if (!name) fail(`username expected, type 'tocsin user ${command} --help' for help`);
  if (name === everyone || name === everyoneWord || !usernamePattern.test(name)) fail('username not allowed');
  return name;
}

function validRole(role: string): Role {
  if (!isRole(role)) fail(roleRule);
  return role;
}
