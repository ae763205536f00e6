import { everyone, type Grant, type Permission } from '../../../model/access.js';
import type { Provisioning } from '../../auth-store.js';
import type { AuthDb } from './auth-db.js';
import { presentUser, type AccessDoc } from './collections.js';
import { compareText, firstOf } from './order.js';
import { candidatesFor, matches, patternFields } from './topic-patterns.js';

/** Whether a user exists (remembered, users.ts). */
export type IsUser = (name: string) => Promise<boolean>;

/**
 * The access entries (collection `auth_access`): who may read or write which topic
 * patterns. Entries of a user who no longer exists are ignored wherever they are read:
 * a user's removal takes the user first and their entries after (users.ts), so a crash in
 * between leaves entries nobody may use, never ones still deciding.
 */
export class Grants {
  constructor(
    private readonly db: AuthDb,
    private readonly isUser: IsUser,
  ) {}

  private get access() {
    return this.db.collections.access;
  }

  /** ntfy's order: the user's own before everyone's, then the longest pattern, then write before read. */
  permission(username: string, topic: string): Promise<Permission | undefined> {
    return this.db.remembered(`p\0${username}\0${topic}`, async () => {
      const entries = await this.access.find({ user: { $in: [username, everyone] }, ...candidatesFor(topic) }).toArray();
      const ordered = entries.filter((e) => matches(e, topic)).sort((a, b) => firstOf(
        Number(a.user === everyone) - Number(b.user === everyone),
        b.topic.length - a.topic.length,
        Number(b.write) - Number(a.write),
      ));
      for (const e of ordered) if (await this.live(e)) return { read: e.read, write: e.write };
      return undefined;
    });
  }

  async of(username: string): Promise<Grant[]> {
    const entries = await this.alive(await this.access.find({ user: username }).toArray());
    entries.sort((a, b) => firstOf(
      b.topic.length - a.topic.length,
      Number(b.write) - Number(a.write),
      Number(b.read) - Number(a.read),
      compareText(a.topic, b.topic),
    ));
    return entries.map((e) => ({ topic: e.topic, permission: { read: e.read, write: e.write } }));
  }

  /** Adds or replaces one entry; `owner` is the user whose reservation made it. */
  async put(username: string, topic: string, p: Permission, owner: string | null, provisioned = false): Promise<void> {
    const entry = { user: username, ...patternFields(topic), read: p.read, write: p.write, owner, provisioned };
    await this.access.replaceOne({ _id: entryId(username, topic) }, entry, { upsert: true });
  }

  /** Removes one entry, all of a user's (and those their reservations made), or every entry. */
  async reset(username?: string, topic?: string): Promise<void> {
    if (username === undefined) await this.access.deleteMany({});
    else if (topic === undefined) await this.access.deleteMany({ $or: [{ user: username }, { owner: username }] });
    else await this.access.deleteMany({ topic, $or: [{ user: username }, { owner: username }] });
  }

  /** Removes the user's own entries, keeping what their reservations grant everyone. */
  async removeOwn(username: string): Promise<void> {
    await this.access.deleteMany({ user: username });
  }

  /**
   * The listed entries are written first and the earlier ones no longer listed removed
   * after, so no entry that stays is ever missing, even to a concurrent read.
   */
  async provision(grants: Provisioning['grants']): Promise<void> {
    for (const g of grants) await this.put(g.user, g.topic, g.permission, null, true);
    await this.access.deleteMany({ provisioned: true, _id: { $nin: grants.map((g) => entryId(g.user, g.topic)) } });
  }

  /** The entries whose user and owner exist, asked in one query (listings may hold thousands of owners). */
  async alive(entries: AccessDoc[]): Promise<AccessDoc[]> {
    const names = [...new Set(entries.flatMap((e) => [e.user, e.owner ?? everyone]))].filter((n) => n !== everyone);
    const found = await this.db.collections.users.find({ _id: { $in: names }, ...presentUser }, { projection: { _id: 1 } }).toArray();
    const existing = new Set<string>([everyone, ...found.map((u) => u._id)]);
    return entries.filter((e) => existing.has(e.user) && existing.has(e.owner ?? everyone));
  }

  /** The same for one entry, from what is remembered: on the path of every request. */
  private async live(e: AccessDoc): Promise<boolean> {
    return (e.user === everyone || (await this.isUser(e.user))) && (e.owner === null || (await this.isUser(e.owner)));
  }
}

/** User names and patterns hold no `/` (usernamePattern, topicPatternPattern), so this is unique. */
function entryId(username: string, topic: string): string {
  return `${username}/${topic}`;
}
