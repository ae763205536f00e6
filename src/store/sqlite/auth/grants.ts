import type { Grant, Permission } from '../../../model/access.js';
import type { AccessEntry, Provisioning } from '../../auth-store.js';
import type { AuthFile } from './file.js';

/**
 * Whether the bound topic matches an entry's `topic` pattern. Patterns are stored as
 * written (`alerts*`) and matched case-sensitively, `*` the only wildcard (ntfy 2.24's fix
 * of its case-insensitive LIKE): GLOB's own `*`, with its other wildcards `?` and `[`
 * bracketed so that they stand for themselves.
 */
export const topicMatches = (param = '?'): string => `${param} GLOB replace(replace(topic, '[', '[[]'), '?', '[?]')`;

/** The access entries (table `access`): who may read or write which topic patterns. */
export class Grants {
  constructor(private readonly file: AuthFile) {}

  permission(username: string, topic: string): Permission | undefined {
    return this.file.remembered(`p\0${username}\0${topic}`, () => {
      // The user's groups: every logged-in user's, and the named ones they are in (held by `*NAME`).
      const row = this.file.sql(
        `SELECT read, write FROM access
         WHERE (user = @user OR user = '*' OR (@user <> '*' AND (user = '*authenticated' OR user IN (SELECT '*' || grp FROM group_members WHERE user = @user))))
           AND ${topicMatches('@topic')}
         ORDER BY user = '*', length(topic) DESC, user <> @user, write DESC LIMIT 1`,
      ).get({ user: username, topic }) as { read: number; write: number } | undefined;
      return row && { read: row.read === 1, write: row.write === 1 };
    });
  }

  /** Every entry, remembered whole until a change. */
  all(): readonly AccessEntry[] {
    return this.file.remembered('all-access', () =>
      (this.file.sql('SELECT user, topic, read, write FROM access').all() as { user: string; topic: string; read: number; write: number }[]).map((r) => ({
        user: r.user,
        topic: r.topic,
        permission: { read: r.read === 1, write: r.write === 1 },
      })), true);
  }

  of(username: string): Grant[] {
    const rows = this.file.sql('SELECT topic, read, write FROM access WHERE user = ? ORDER BY length(topic) DESC, write DESC, read DESC, topic').all(username) as {
      topic: string;
      read: number;
      write: number;
    }[];
    return rows.map((r) => ({ topic: r.topic, permission: { read: r.read === 1, write: r.write === 1 } }));
  }

  /** Adds or replaces one entry; `owner` is the user whose reservation made it. */
  put(username: string, topic: string, p: Permission, owner: string | null, provisioned = false): void {
    this.file.write(
      `INSERT INTO access (user, topic, read, write, owner, provisioned) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (user, topic) DO UPDATE SET read = excluded.read, write = excluded.write, owner = excluded.owner, provisioned = excluded.provisioned`,
      username, topic, p.read ? 1 : 0, p.write ? 1 : 0, owner, provisioned ? 1 : 0,
    );
  }

  /** Removes one entry, all of a user's (and those their reservations made), or every entry. */
  reset(username?: string, topic?: string): void {
    if (username === undefined) this.file.write('DELETE FROM access');
    else if (topic === undefined) this.file.write('DELETE FROM access WHERE user = ? OR owner = ?', username, username);
    else this.file.write('DELETE FROM access WHERE (user = ? OR owner = ?) AND topic = ?', username, username, topic);
  }

  /** Removes the user's own entries, keeping what their reservations grant everyone. */
  removeOwn(username: string): void {
    this.file.write('DELETE FROM access WHERE user = ?', username);
  }

  /** Entries carry no state of their own: the provisioned ones are dropped and added anew. */
  provision(grants: Provisioning['grants']): void {
    this.file.write('DELETE FROM access WHERE provisioned = 1');
    for (const g of grants) this.put(g.user, g.topic, g.permission, null, true);
  }
}
