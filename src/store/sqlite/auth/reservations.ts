import { everyone, readWrite, type Permission } from '../../../model/access.js';
import type { Reservation } from '../../../model/account.js';
import type { AuthFile } from './file.js';
import { topicMatches, type Grants } from './grants.js';

/**
 * Reserved topics: a pair of access entries owned by the user who reserved the topic,
 * read-write for them and what they chose for everyone.
 */
export class Reservations {
  constructor(
    private readonly file: AuthFile,
    private readonly grants: Grants,
  ) {}

  of(username: string): Reservation[] {
    const rows = this.file.sql(
      `SELECT a.topic, e.read, e.write FROM access a LEFT JOIN access e ON e.topic = a.topic AND e.user = '*'
       WHERE a.user = ? AND a.owner = a.user ORDER BY a.topic`,
    ).all(username) as { topic: string; read: number | null; write: number | null }[];
    return rows.map((r) => ({ topic: r.topic, everyone: { read: r.read === 1, write: r.write === 1 } }));
  }

  owner(topic: string): string | undefined {
    return this.file.sql('SELECT owner FROM access WHERE topic = ? AND user = owner').pluck().get(topic) as string | undefined;
  }

  othersHaveAccess(username: string, topic: string): boolean {
    const count = this.file.sql(`SELECT COUNT(*) FROM access WHERE ${topicMatches()} AND (owner IS NULL OR owner != ?)`)
      .pluck().get(topic, username) as number;
    return count > 0;
  }

  add(username: string, topic: string, everyoneMay: Permission): void {
    this.file.transaction(() => {
      this.grants.put(username, topic, readWrite, username);
      this.grants.put(everyone, topic, everyoneMay, username);
    });
  }

  remove(username: string, topics: readonly string[]): void {
    this.file.transaction(() => {
      for (const topic of topics) this.file.write('DELETE FROM access WHERE owner = ? AND topic = ?', username, topic);
    });
  }
}
