import { everyone, readWrite, type Permission } from '../../../model/access.js';
import type { Reservation } from '../../../model/account.js';
import type { AuthDb } from './auth-db.js';
import { everyoneHolder } from './collections.js';
import type { Grants } from './grants.js';
import { compareText } from './order.js';
import { candidatesFor, matches } from './topic-patterns.js';
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

  async of(username: string): Promise<Reservation[]> {
    const own = await this.grants.alive(await this.access.find({ user: username, owner: username }).toArray());
    const everyones = await this.access.find({ user: everyone, topic: { $in: own.map((e) => e.topic) } }).toArray();
    const forEveryone = new Map(everyones.map((e) => [e.topic, { read: e.read, write: e.write }]));
    return own
      .map((e) => ({ topic: e.topic, everyone: forEveryone.get(e.topic) ?? { read: false, write: false } }))
      .sort((a, b) => compareText(a.topic, b.topic));
  }

  async owner(topic: string): Promise<string | undefined> {
    const owned = await this.grants.alive(await this.access.find({ topic, owner: { $ne: null } }).toArray());
    return owned.find((e) => e.user === e.owner)?.owner ?? undefined;
  }

  async othersHaveAccess(username: string, topic: string): Promise<boolean> {
    const entries = await this.access.find({ ...candidatesFor(topic), owner: { $ne: username } }).toArray();
    return (await this.grants.alive(entries.filter((e) => matches(e, topic)))).length > 0;
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
