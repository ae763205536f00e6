import { randomName, type Role, type User } from '../../../model/access.js';
import type { Prefs, Tier } from '../../../model/account.js';
import { nowSeconds } from '../../../model/message.js';
import { AlreadyExists, NotFound, Provisioned, type ImportedUser, type Provisioning } from '../../auth-store.js';
import type { AuthDb, Queryable } from './auth-db.js';
import type { Grants } from './grants.js';
import type { Tiers } from './tiers.js';

interface UserRow {
  name: string;
  hash: string;
  role: Role;
  sync_topic: string;
  prefs: string;
  tier: string | null;
  provisioned: boolean;
}

const selectUser = 'SELECT name, hash, role, sync_topic, prefs, tier, provisioned FROM users';

/** The users: password hash, role, tier and account preferences. */
export class Users {
  constructor(
    private readonly db: AuthDb,
    private readonly tiers: Tiers,
    private readonly grants: Grants,
  ) {}

  find(name: string): Promise<User | undefined> {
    return this.db.remembered(`u\0${name}`, async () => {
      const [row] = await this.db.rows<UserRow>(`${selectUser} WHERE name = $1`, [name]);
      return row && toUser(row, row.tier === null ? undefined : await this.tiers.find(row.tier));
    });
  }

  /** Throws `NotFound` unless the user exists (read on `c`: within a change, its transaction's). */
  async mustExist(c: Queryable, name: string): Promise<void> {
    if ((await this.db.rows(`SELECT 1 FROM users WHERE name = $1`, [name], c)).length === 0) throw new NotFound(`user ${name} does not exist`);
  }

  async all(): Promise<User[]> {
    const [rows, tiers] = await Promise.all([this.db.rows<UserRow>(`${selectUser} ORDER BY role = 'user', name`), this.tiers.all()]);
    const byCode = new Map(tiers.map((t) => [t.code, t]));
    return rows.map((row) => toUser(row, row.tier === null ? undefined : byCode.get(row.tier)));
  }

  count(): Promise<number> {
    return this.db.remembered('n\0users', async () => (await this.db.rows<{ n: number }>('SELECT count(*) AS n FROM users'))[0]?.n ?? 0);
  }

  async add(name: string, hash: string, role: Role): Promise<void> {
    const added = await this.db.change((c) =>
      c.query('INSERT INTO users (name, hash, role, sync_topic, created) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (name) DO NOTHING', [name, hash, role, randomName('st_', 16), nowSeconds()]),
    );
    if (added.rowCount === 0) throw new AlreadyExists(`user ${name} already exists`);
  }

  async import(u: ImportedUser): Promise<boolean> {
    if (u.tier !== undefined && !(await this.tiers.find(u.tier))) throw new NotFound(`tier ${u.tier} does not exist`);
    const added = await this.db.change((c) =>
      c.query('INSERT INTO users (name, hash, role, tier, sync_topic, prefs, created) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (name) DO NOTHING', [
        u.name, u.hash, u.role, u.tier ?? null, u.syncTopic, JSON.stringify(u.prefs), u.created,
      ]),
    );
    return added.rowCount === 1;
  }

  remove(name: string): Promise<void> {
    return this.db.change(async (c) => {
      await this.unprovisioned(c, name);
      await this.delete(c, name);
    });
  }

  changePassword(name: string, hash: string): Promise<void> {
    return this.db.change((c) => this.setPassword(c, name, hash));
  }

  /** Within a change: NotFound or Provisioned before anything is written. */
  async setPassword(c: Queryable, name: string, hash: string): Promise<void> {
    await this.unprovisioned(c, name);
    await c.query('UPDATE users SET hash = $1 WHERE name = $2', [hash, name]);
  }

  changeRole(name: string, role: Role): Promise<void> {
    return this.db.change(async (c) => {
      await this.unprovisioned(c, name);
      await this.setRole(c, name, role);
    });
  }

  async changeTier(name: string, code: string | undefined): Promise<void> {
    let tier: Tier | undefined;
    if (code !== undefined && !(tier = await this.tiers.find(code))) throw new NotFound(`tier ${code} does not exist`);
    await this.changeOne(name, 'UPDATE users SET tier = $1 WHERE name = $2', [tier?.code ?? null, name]);
  }

  changePrefs(name: string, prefs: Prefs): Promise<void> {
    return this.changeOne(name, 'UPDATE users SET prefs = $1 WHERE name = $2', [JSON.stringify(prefs), name]);
  }

  /** Earlier provisioned users no longer listed go; listed ones are added or brought up to date. */
  async provision(c: Queryable, users: Provisioning['users']): Promise<void> {
    const listed = new Set(users.map((u) => u.name));
    const earlier = await this.db.rows<{ name: string }>('SELECT name FROM users WHERE provisioned', [], c);
    for (const { name } of earlier.filter((u) => !listed.has(u.name))) await this.delete(c, name);
    for (const u of users) {
      await c.query(
        `INSERT INTO users (name, hash, role, sync_topic, provisioned, created) VALUES ($1, $2, $3, $4, true, $5)
         ON CONFLICT (name) DO UPDATE SET hash = excluded.hash, provisioned = true`,
        [u.name, u.hash, u.role, randomName('st_', 16), nowSeconds()],
      );
      await this.setRole(c, u.name, u.role);
    }
  }

  /** Tokens and phone numbers go by the foreign keys' cascade; access entries are not keyed to users. */
  private async delete(c: Queryable, name: string): Promise<void> {
    await c.query('DELETE FROM users WHERE name = $1', [name]);
    await this.grants.reset(c, name);
  }

  private async setRole(c: Queryable, name: string, role: Role): Promise<void> {
    await c.query('UPDATE users SET role = $1 WHERE name = $2', [role, name]);
    // An admin may do everything, so entries of their own would only mislead (as ntfy).
    if (role === 'admin') await this.grants.removeOwn(c, name);
  }

  /** NotFound for a missing user, Provisioned for one server.yml owns. */
  private async unprovisioned(c: Queryable, name: string): Promise<void> {
    const [row] = await this.db.rows<{ provisioned: boolean }>('SELECT provisioned FROM users WHERE name = $1', [name], c);
    if (!row) throw new NotFound(`user ${name} does not exist`);
    if (row.provisioned) throw new Provisioned('user');
  }

  private async changeOne(name: string, sql: string, params: unknown[]): Promise<void> {
    const changed = await this.db.change((c) => c.query(sql, params));
    if (changed.rowCount === 0) throw new NotFound(`user ${name} does not exist`);
  }
}

function toUser(row: UserRow, tier: Tier | undefined): User {
  return {
    name: row.name,
    hash: row.hash,
    role: row.role,
    syncTopic: row.sync_topic,
    prefs: JSON.parse(row.prefs) as Prefs,
    provisioned: row.provisioned,
    ...(tier && { tier }),
  };
}
