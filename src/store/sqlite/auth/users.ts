import { randomName, type Role, type User } from '../../../model/access.js';
import type { Prefs } from '../../../model/account.js';
import { nowSeconds } from '../../../model/message.js';
import { AlreadyExists, NotFound, Provisioned, type ImportedUser, type Provisioning } from '../../auth-store.js';
import type { AuthFile } from './file.js';
import type { Grants } from './grants.js';
import type { Tiers } from './tiers.js';

interface UserRow {
  name: string;
  hash: string;
  role: Role;
  sync_topic: string;
  prefs: string;
  tier: string | null;
  provisioned: number;
}

const selectUser = 'SELECT name, hash, role, sync_topic, prefs, tier, provisioned FROM users';

/** The users: password hash, role, tier and account preferences. */
export class Users {
  constructor(
    private readonly file: AuthFile,
    private readonly tiers: Tiers,
    private readonly grants: Grants,
  ) {}

  find(name: string): User | undefined {
    return this.file.remembered(`u\0${name}`, () => this.toUser(this.file.sql(`${selectUser} WHERE name = ?`).get(name) as UserRow | undefined));
  }

  /** Throws `NotFound` unless the user exists: what is changed for a user needs one. */
  mustExist(name: string): void {
    if (!this.find(name)) throw new NotFound(`user ${name} does not exist`);
  }

  all(): User[] {
    const rows = this.file.sql(`${selectUser} ORDER BY role = 'user', name`).all() as UserRow[];
    return rows.map((row) => this.toUser(row)!);
  }

  count(): number {
    return this.file.remembered('n\0users', () => this.file.sql('SELECT COUNT(*) FROM users').pluck().get() as number);
  }

  add(name: string, hash: string, role: Role): void {
    const added = this.file.write('INSERT OR IGNORE INTO users (name, hash, role, sync_topic, created) VALUES (?, ?, ?, ?, ?)',
      name, hash, role, randomName('st_', 16), nowSeconds(),
    );
    if (added.changes === 0) throw new AlreadyExists(`user ${name} already exists`);
  }

  import(u: ImportedUser): boolean {
    if (u.tier !== undefined && !this.tiers.find(u.tier)) throw new NotFound(`tier ${u.tier} does not exist`);
    return this.file.write('INSERT OR IGNORE INTO users (name, hash, role, tier, sync_topic, prefs, created) VALUES (?, ?, ?, ?, ?, ?, ?)',
      u.name, u.hash, u.role, u.tier ?? null, u.syncTopic, JSON.stringify(u.prefs), u.created,
    ).changes === 1;
  }

  remove(name: string): void {
    this.unprovisioned(name);
    this.delete(name);
  }

  changePassword(name: string, hash: string): void {
    this.unprovisioned(name);
    this.file.write('UPDATE users SET hash = ? WHERE name = ?', hash, name);
  }

  changeRole(name: string, role: Role): void {
    this.unprovisioned(name);
    this.setRole(name, role);
  }

  changeTier(name: string, code: string | undefined): void {
    if (code !== undefined && !this.tiers.find(code)) throw new NotFound(`tier ${code} does not exist`);
    this.changed(this.file.write('UPDATE users SET tier = ? WHERE name = ?', code ?? null, name).changes, name);
  }

  changePrefs(name: string, prefs: Prefs): void {
    this.changed(this.file.write('UPDATE users SET prefs = ? WHERE name = ?', JSON.stringify(prefs), name).changes, name);
  }

  /** Earlier provisioned users no longer listed go; listed ones are added or brought up to date. */
  provision(users: Provisioning['users']): void {
    const listed = new Set(users.map((u) => u.name));
    const earlier = this.file.sql('SELECT name FROM users WHERE provisioned = 1').pluck().all() as string[];
    for (const name of earlier.filter((n) => !listed.has(n))) this.delete(name);
    for (const u of users) {
      this.file.write(
        `INSERT INTO users (name, hash, role, sync_topic, provisioned, created) VALUES (?, ?, ?, ?, 1, ?)
         ON CONFLICT (name) DO UPDATE SET hash = excluded.hash, provisioned = 1`,
        u.name, u.hash, u.role, randomName('st_', 16), nowSeconds(),
      );
      this.setRole(u.name, u.role);
    }
  }

  /** Tokens go by the foreign key's cascade; access entries are not keyed to users. */
  private delete(name: string): void {
    this.file.transaction(() => {
      this.file.write('DELETE FROM users WHERE name = ?', name);
      this.grants.reset(name);
    });
  }

  private setRole(name: string, role: Role): void {
    this.file.transaction(() => {
      this.file.write('UPDATE users SET role = ? WHERE name = ?', role, name);
      // An admin may do everything, so entries of their own would only mislead (as ntfy).
      if (role === 'admin') this.grants.removeOwn(name);
    });
  }

  /** NotFound for a missing user, Provisioned for one server.yml owns. */
  private unprovisioned(name: string): void {
    const provisioned = this.file.sql('SELECT provisioned FROM users WHERE name = ?').pluck().get(name) as number | undefined;
    if (provisioned === undefined) throw new NotFound(`user ${name} does not exist`);
    if (provisioned === 1) throw new Provisioned('user');
  }

  private toUser(row: UserRow | undefined): User | undefined {
    if (!row) return undefined;
    const tier = row.tier === null ? undefined : this.tiers.find(row.tier);
    return {
      name: row.name,
      hash: row.hash,
      role: row.role,
      syncTopic: row.sync_topic,
      prefs: JSON.parse(row.prefs) as Prefs,
      provisioned: row.provisioned === 1,
      ...(tier && { tier }),
    };
  }

  private changed(changes: number, name: string): void {
    if (changes === 0) throw new NotFound(`user ${name} does not exist`);
  }
}
