import type { Command } from 'commander';
import { groupNameError } from '../model/access.js';
import type { Group } from '../store/auth-store.js';
import { adminAction, fail, say, withAuthOptions } from './auth-admin.js';

/**
 * `tocsin group add|remove|list NAME` and `tocsin group member NAME add|remove USER`
 * (issue 38; ntfy has no groups): named groups, whose access entries `tocsin access
 * --group NAME` manages and every member gets. Messages go to stderr, as the other admin
 * commands' (ntfy's shape).
 */
export function registerGroup(program: Command): void {
  const group = withAuthOptions(program.command('group')).description('Manage/show groups and their members').usage('[list|add|remove|member] ...');

  group.command('add').alias('a').description('Adds a new group').argument('<name>').action(
    adminAction(async (admin, name: string) => {
      await (await admin.store()).addGroup(validName(name));
      say(`group ${name} added`);
    }),
  );

  group.command('remove').alias('del').alias('rm').description('Removes a group, its members and its access entries').argument('<name>').action(
    adminAction(async (admin, name: string) => {
      await (await admin.store()).removeGroup(validName(name));
      say(`group ${name} removed`);
    }),
  );

  group.command('list').alias('l').description('Shows groups and their members').action(
    adminAction(async (admin) => {
      const groups = await (await admin.store()).groups();
      if (groups.length === 0) say('no groups');
      for (const g of groups) showGroup(g);
    }),
  );

  group.command('member').description("Adds a user to a group or removes them: 'member NAME add|remove USER'").argument('<name>').argument('<action>').argument('<user>').action(
    adminAction(async (admin, name: string, action: string, user: string) => {
      const store = await admin.store();
      if (action === 'add') await store.addMember(validName(name), user);
      else if (action === 'remove') await store.removeMember(validName(name), user);
      else fail(`unknown action ${action}: 'add' or 'remove'`);
      say(action === 'add' ? `user ${user} added to group ${name}` : `user ${user} removed from group ${name}`);
    }),
  );
}

/** A group name, or the CLI's error for a bad one (model/access.ts groupNameError). */
export function validName(name: string): string {
  const error = groupNameError(name);
  if (error !== undefined) fail(error);
  return name;
}

function showGroup(g: Group): void {
  say(`group ${g.name}${g.provisioned ? ' (provisioned)' : ''}`);
  if (g.members.length === 0) say('- no members');
  for (const m of g.members) say(`- member ${m}`);
}
