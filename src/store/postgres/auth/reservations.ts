import { everyone, readWrite, type Permission } from '../../../model/access.js';
import type { Reservation } from '../../../model/account.js';
import type { AuthDb } from './auth-db.js';
import { topicMatches, type Grants } from './grants.js';

/**
 * Reserved topics: a pair of access entries owned by the user who reserved the topic,
 * read-write for them and what they chose for everyone.
 */
export class Reservations {
  constructor(
    private readonly db: AuthDb,
    private readonly grants: Grants,
  ) {}

  async of(username: string): Promise<Reservation[]> {
    const rows = await this.db.rows<{ topic: string; read: boolean | null; write: boolean | null }>(
      `SELECT a.topic, e.read, e.write FROM access a LEFT JOIN access e ON e.topic = a.topic AND e.user_name = '*'
       WHERE a.user_name = $1 AND a.owner = a.user_name ORDER BY a.topic`,
      [username],
    );
    return rows.map((r) => ({ topic: r.topic, everyone: { read: r.read === true, write: r.write === true } }));
  }

  async owner(topic: string): Promise<string | undefined> {
    return (await this.db.rows<{ owner: string }>('SELECT owner FROM access WHERE topic = $1 AND user_name = owner', [topic]))[0]?.owner;
  }

  async othersHaveAccess(username: string, topic: string): Promise<boolean> {
    const [row] = await this.db.rows<{ n: number }>(`SELECT count(*) AS n FROM access WHERE ${topicMatches(1)} AND (owner IS NULL OR owner <> $2)`, [topic, username]);
    return (row?.n ?? 0) > 0;
  }

  add(username: string, topic: string, everyoneMay: Permission): Promise<void> {
    return this.db.change(async (c) => {
      await this.grants.put(c, username, topic, readWrite, username);
      await this.grants.put(c, everyone, topic, everyoneMay, username);
    });
  }

  remove(username: string, topics: readonly string[]): Promise<void> {
    return this.db.change(async (c) => {
      await c.query('DELETE FROM access WHERE owner = $1 AND topic = ANY($2)', [username, topics]);
    });
  }
}
