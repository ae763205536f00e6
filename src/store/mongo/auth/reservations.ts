import { everyone, readWrite, type Permission } from '../../../model/access.js';
import type { Reservation } from '../../../model/account.js';
import type { AuthDb } from './auth-db.js';
import { everyoneHolder } from './collections.js';
import type { Grants } from './grants.js';
import { compareText } from './order.js';
import type { Users } from './users.js';

/**
 * Reserved topics: a pair of access entries owned by the user who reserved the topic,
 * read-write for them and what they chose for everyone.
 */
export class Reservations {
  constructor(
    private readonly db: AuthDb,
    private readonly grants: Grants,
    private readonly users: Users,
  ) {}

  private get access() {
    return this.db.collections.access;
  }

  // Equality filters only, the rest sifted here: FerretDB 1.24 reads the whole collection
  // for `$ne` and `$in` (topic-patterns.ts).

  /** Everyone's entry for each reserved topic, whoever wrote it last (the auth-file's join). */
  async of(username: string): Promise<Reservation[]> {
    const own = await this.grants.alive(await this.access.find({ user: username, owner: username }).toArray());
    const everyones = await Promise.all(own.map((e) => this.access.findOne({ _id: `${everyone}/${e.topic}` })));
    return own
      .map((e, i) => ({ topic: e.topic, everyone: { read: everyones[i]?.read ?? false, write: everyones[i]?.write ?? false } }))
      .sort((a, b) => compareText(a.topic, b.topic));
  }

  async owner(topic: string): Promise<string | undefined> {
    const owned = await this.grants.alive(await this.access.find({ topic }).toArray());
    return owned.find((e) => e.owner !== null && e.user === e.owner)?.owner ?? undefined;
  }

  async othersHaveAccess(username: string, topic: string): Promise<boolean> {
    const entries = (await this.grants.matching(topic, {})).filter((e) => e.owner !== username);
    return (await this.grants.alive(entries)).length > 0;
  }

  /**
   * The owner's entry first: a crash before everyone's leaves the reservation as
   * `access --reset everyone TOPIC` would (everyone at the default), and adding it again
   * completes it, both writes being upserts.
   */
  async add(username: string, topic: string, everyoneMay: Permission): Promise<void> {
    const owner = await this.users.holder(username);
    await this.grants.put(owner, topic, readWrite, owner);
    await this.grants.put(everyoneHolder, topic, everyoneMay, owner);
  }

  async remove(username: string, topics: readonly string[]): Promise<void> {
    await this.access.deleteMany({ owner: username, topic: { $in: [...topics] } });
  }
}
