import type { Grant, Permission } from '../../../model/access.js';
import type { AccessEntry, Provisioning } from '../../auth-store.js';
import type { AuthDb, Queryable } from './auth-db.js';

/**
 * Whether topic `$n` matches an entry's `topic` pattern: patterns are stored as written
 * (`alerts*`) and matched case-sensitively, `*` the only wildcard (ntfy 2.24's fix of its
 * case-insensitive LIKE): LIKE's own wildcards and escape character are escaped, then `*`
 * becomes `%`.
 */
export const topicMatches = (n: number): string =>
  `$${n} LIKE replace(replace(replace(replace(topic, '\\', '\\\\'), '_', '\\_'), '%', '\\%'), '*', '%') ESCAPE '\\'`;

/** The access entries (table `access`): who may read or write which topic patterns. */
export class Grants {
  constructor(private readonly db: AuthDb) {}

  permission(username: string, topic: string): Promise<Permission | undefined> {
    return this.db.remembered(`p\0${username}\0${topic}`, async () => {
      const [row] = await this.db.rows<Permission>(
        // The user's groups: every logged-in user's, and the named ones they are in (held by `*NAME`).
        `SELECT read, write FROM access
         WHERE (user_name = $1 OR user_name = '*' OR ($1 <> '*' AND (user_name = '*authenticated' OR user_name IN (SELECT '*' || grp FROM group_members WHERE user_name = $1))))
           AND ${topicMatches(2)}
         ORDER BY user_name = '*', length(topic) DESC, user_name <> $1, write DESC LIMIT 1`,
        [username, topic],
      );
      return row && { read: row.read, write: row.write };
    });
  }

  /** Every entry, remembered whole until a change. */
  all(): Promise<readonly AccessEntry[]> {
    return this.db.remembered('all-access', async () => {
      const rows = await this.db.rows<Permission & { user_name: string; topic: string }>('SELECT user_name, topic, read, write FROM access');
      return rows.map((r) => ({ user: r.user_name, topic: r.topic, permission: { read: r.read, write: r.write } }));
    }, true);
  }

  async of(username: string): Promise<Grant[]> {
    const rows = await this.db.rows<Permission & { topic: string }>('SELECT topic, read, write FROM access WHERE user_name = $1 ORDER BY length(topic) DESC, write DESC, read DESC, topic', [username]);
    return rows.map((r) => ({ topic: r.topic, permission: { read: r.read, write: r.write } }));
  }

  /** Adds or replaces one entry; `owner` is the user whose reservation made it. */
  async put(c: Queryable, username: string, topic: string, p: Permission, owner: string | null, provisioned = false): Promise<void> {
    await c.query(
      `INSERT INTO access (user_name, topic, read, write, owner, provisioned) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (user_name, topic) DO UPDATE SET read = excluded.read, write = excluded.write, owner = excluded.owner, provisioned = excluded.provisioned`,
      [username, topic, p.read, p.write, owner, provisioned],
    );
  }

  /** Removes one entry, all of a user's (and those their reservations made), or every entry. */
  async reset(c: Queryable, username?: string, topic?: string): Promise<void> {
    if (username === undefined) await c.query('DELETE FROM access');
    else if (topic === undefined) await c.query('DELETE FROM access WHERE user_name = $1 OR owner = $1', [username]);
    else await c.query('DELETE FROM access WHERE (user_name = $1 OR owner = $1) AND topic = $2', [username, topic]);
  }

  /** Removes the user's own entries, keeping what their reservations grant everyone. */
  async removeOwn(c: Queryable, username: string): Promise<void> {
    await c.query('DELETE FROM access WHERE user_name = $1', [username]);
  }

  /** Entries carry no state of their own: the provisioned ones are dropped and added anew. */
  async provision(c: Queryable, grants: Provisioning['grants']): Promise<void> {
    await c.query('DELETE FROM access WHERE provisioned');
    for (const g of grants) await this.put(c, g.user, g.topic, g.permission, null, true);
  }
}
