import { groupHolder } from '../../../model/access.js';
import { AlreadyExists, NotFound, Provisioned, type Group, type Membership, type MembershipSource, type Provisioning } from '../../auth-store.js';
import type { AuthDb, Queryable } from './auth-db.js';
import type { Grants } from './grants.js';
import type { Users } from './users.js';

/**
 * Schema version 6: named groups (issue 38) and their members, as the auth-file's version 5
 * (sqlite/auth/schema.ts): a membership goes with its group or its user by the cascade.
 */
export const groupsSchema = `
  CREATE TABLE groups (name text PRIMARY KEY, provisioned boolean NOT NULL DEFAULT false);
  CREATE TABLE group_members (
    user_name text NOT NULL REFERENCES users (name) ON DELETE CASCADE ON UPDATE CASCADE,
    grp text NOT NULL REFERENCES groups (name) ON DELETE CASCADE,
    source text NOT NULL,
    PRIMARY KEY (user_name, grp)
  );
  CREATE INDEX group_members_grp ON group_members (grp);
`;

/** Named groups (tables `groups` and `group_members`); their access entries are `Grants`' under `*NAME`. */
export class Groups {
  constructor(
    private readonly db: AuthDb,
    private readonly users: Users,
    private readonly grants: Grants,
  ) {}

  /** Every membership, remembered whole until a change (as `Grants.all`). */
  memberships(): Promise<readonly Membership[]> {
    return this.db.remembered('all-members', () => this.db.rows<Membership>('SELECT grp AS "group", user_name AS "user" FROM group_members'), true);
  }

  async all(): Promise<Group[]> {
    const [groups, members] = await Promise.all([
      this.db.rows<{ name: string; provisioned: boolean }>('SELECT name, provisioned FROM groups ORDER BY name COLLATE "C"'),
      this.db.rows<{ grp: string; user_name: string }>('SELECT grp, user_name FROM group_members ORDER BY user_name COLLATE "C"'),
    ]);
    return groups.map((g) => ({ name: g.name, provisioned: g.provisioned, members: members.filter((m) => m.grp === g.name).map((m) => m.user_name) }));
  }

  add(name: string): Promise<void> {
    return this.db.change(async (c) => {
      const added = await c.query('INSERT INTO groups (name) VALUES ($1) ON CONFLICT DO NOTHING', [name]);
      if (added.rowCount === 0) throw new AlreadyExists(`group ${name} already exists`);
    });
  }

  remove(name: string): Promise<void> {
    return this.db.change(async (c) => {
      const [row] = await this.db.rows<{ provisioned: boolean }>('SELECT provisioned FROM groups WHERE name = $1 FOR UPDATE', [name], c);
      if (!row) throw new NotFound(`group ${name} does not exist`);
      if (row.provisioned) throw new Provisioned('group');
      await this.delete(c, name);
    });
  }

  async mustExist(c: Queryable, name: string): Promise<void> {
    const rows = await this.db.rows('SELECT 1 FROM groups WHERE name = $1 FOR SHARE', [name], c);
    if (rows.length === 0) throw new NotFound(`group ${name} does not exist`);
  }

  addMember(group: string, user: string, source: MembershipSource = 'manual'): Promise<void> {
    return this.db.change(async (c) => {
      await this.mustExist(c, group);
      await this.users.mustExist(c, user);
      await c.query('INSERT INTO group_members (user_name, grp, source) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [user, group, source]);
    });
  }

  removeMember(group: string, user: string): Promise<void> {
    return this.db.change(async (c) => {
      const [row] = await this.db.rows<{ source: MembershipSource }>('SELECT source FROM group_members WHERE grp = $1 AND user_name = $2 FOR UPDATE', [group, user], c);
      if (!row) throw new NotFound(`user ${user} is not a member of group ${group}`);
      if (row.source === 'provisioned') throw new Provisioned('group member');
      await c.query('DELETE FROM group_members WHERE grp = $1 AND user_name = $2', [group, user]);
    });
  }

  sync(user: string, groups: readonly string[]): Promise<void> {
    return this.db.change(async (c) => {
      await this.users.mustExist(c, user);
      await c.query(`DELETE FROM group_members WHERE user_name = $1 AND source = 'header' AND NOT grp = ANY($2::text[])`, [user, groups]);
      await c.query(`INSERT INTO group_members (user_name, grp, source) SELECT $1, name, 'header' FROM groups WHERE name = ANY($2::text[]) ON CONFLICT DO NOTHING`, [user, groups]);
    });
  }

  /** Earlier provisioned groups no longer listed go; listed ones are made, with exactly the listed provisioned members. */
  async provision(c: Queryable, groups: NonNullable<Provisioning['groups']>): Promise<void> {
    const listed = new Set(groups.map((g) => g.name));
    const earlier = await this.db.rows<{ name: string }>('SELECT name FROM groups WHERE provisioned', [], c);
    for (const { name } of earlier.filter((g) => !listed.has(g.name))) await this.delete(c, name);
    await c.query(`DELETE FROM group_members WHERE source = 'provisioned'`);
    for (const g of groups) {
      await c.query('INSERT INTO groups (name, provisioned) VALUES ($1, true) ON CONFLICT (name) DO UPDATE SET provisioned = true', [g.name]);
      for (const user of g.members) {
        await c.query(`INSERT INTO group_members (user_name, grp, source) VALUES ($1, $2, 'provisioned') ON CONFLICT (user_name, grp) DO UPDATE SET source = 'provisioned'`, [user, g.name]);
      }
    }
  }

  private async delete(c: Queryable, name: string): Promise<void> {
    await c.query('DELETE FROM groups WHERE name = $1', [name]);
    await this.grants.removeOwn(c, groupHolder(name));
  }
}
