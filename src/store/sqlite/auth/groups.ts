import { groupHolder } from '../../../model/access.js';
import { AlreadyExists, NotFound, Provisioned, type Group, type Membership, type MembershipSource, type Provisioning } from '../../auth-store.js';
import type { AuthFile } from './file.js';
import type { Grants } from './grants.js';
import type { Users } from './users.js';

/** Named groups (tables `groups` and `group_members`); their access entries are `Grants`' under `*NAME`. */
export class Groups {
  constructor(
    private readonly file: AuthFile,
    private readonly users: Users,
    private readonly grants: Grants,
  ) {}

  /** Every membership, remembered whole until a change (as `Grants.all`). */
  memberships(): readonly Membership[] {
    return this.file.remembered('all-members', () => this.file.sql('SELECT grp AS "group", user FROM group_members').all() as Membership[], true);
  }

  all(): Group[] {
    const groups = this.file.sql('SELECT name, provisioned FROM groups ORDER BY name').all() as { name: string; provisioned: number }[];
    const members = this.file.sql('SELECT grp, user FROM group_members ORDER BY user').all() as { grp: string; user: string }[];
    return groups.map((g) => ({ name: g.name, provisioned: g.provisioned === 1, members: members.filter((m) => m.grp === g.name).map((m) => m.user) }));
  }

  add(name: string, provisioned = false): void {
    const added = this.file.write('INSERT OR IGNORE INTO groups (name, provisioned) VALUES (?, ?)', name, provisioned ? 1 : 0);
    if (added.changes === 0) throw new AlreadyExists(`group ${name} already exists`);
  }

  /** Members go by the foreign key's cascade; access entries are not keyed to groups. */
  remove(name: string): void {
    this.file.transaction(() => {
      const provisioned = this.file.sql('SELECT provisioned FROM groups WHERE name = ?').pluck().get(name) as number | undefined;
      if (provisioned === undefined) throw new NotFound(`group ${name} does not exist`);
      if (provisioned === 1) throw new Provisioned('group');
      this.delete(name);
    });
  }

  mustExist(name: string): void {
    if (this.file.sql('SELECT 1 FROM groups WHERE name = ?').get(name) === undefined) throw new NotFound(`group ${name} does not exist`);
  }

  addMember(group: string, user: string, source: MembershipSource = 'manual'): void {
    this.file.transaction(() => {
      this.mustExist(group);
      this.users.mustExist(user);
      this.file.write('INSERT OR IGNORE INTO group_members (user, grp, source) VALUES (?, ?, ?)', user, group, source);
    });
  }

  removeMember(group: string, user: string): void {
    this.file.transaction(() => {
      const source = this.file.sql('SELECT source FROM group_members WHERE grp = ? AND user = ?').pluck().get(group, user) as MembershipSource | undefined;
      if (source === undefined) throw new NotFound(`user ${user} is not a member of group ${group}`);
      if (source === 'provisioned') throw new Provisioned('group member');
      this.file.write('DELETE FROM group_members WHERE grp = ? AND user = ?', group, user);
    });
  }

  sync(user: string, groups: readonly string[]): void {
    this.file.transaction(() => {
      this.users.mustExist(user);
      this.file.write(`DELETE FROM group_members WHERE user = ? AND source = 'header' AND grp NOT IN (SELECT value FROM json_each(?))`, user, JSON.stringify(groups));
      this.file.write(`INSERT OR IGNORE INTO group_members (user, grp, source) SELECT ?, name, 'header' FROM groups WHERE name IN (SELECT value FROM json_each(?))`, user, JSON.stringify(groups));
    });
  }

  /** Earlier provisioned groups no longer listed go; listed ones are made, with exactly the listed provisioned members. */
  provision(groups: NonNullable<Provisioning['groups']>): void {
    const listed = new Set(groups.map((g) => g.name));
    const earlier = this.file.sql('SELECT name FROM groups WHERE provisioned = 1').pluck().all() as string[];
    for (const name of earlier.filter((n) => !listed.has(n))) this.delete(name);
    this.file.write(`DELETE FROM group_members WHERE source = 'provisioned'`);
    for (const g of groups) {
      this.file.write('INSERT INTO groups (name, provisioned) VALUES (?, 1) ON CONFLICT (name) DO UPDATE SET provisioned = 1', g.name);
      for (const user of g.members) {
        this.file.write(`INSERT INTO group_members (user, grp, source) VALUES (?, ?, 'provisioned') ON CONFLICT (user, grp) DO UPDATE SET source = 'provisioned'`, user, g.name);
      }
    }
  }

  private delete(name: string): void {
    this.file.write('DELETE FROM groups WHERE name = ?', name);
    this.grants.removeOwn(groupHolder(name));
  }
}
