import type { Filter } from 'mongodb';
import { authenticated, everyone, groupHolder, holderGroup, isBuiltIn, type Grant, type Permission } from '../../../model/access.js';
import type { AccessEntry, Provisioning } from '../../auth-store.js';
import type { AuthDb } from './auth-db.js';
import { builtInHolder, type AccessDoc, type Holder } from './collections.js';
import type { Groups } from './groups.js';
import { compareText, firstOf } from './order.js';
import { candidateFilters, matches, patternFields } from './topic-patterns.js';
import type { Users } from './users.js';

/**
 * The access entries (collection `auth_access`): who may read or write which topic
 * patterns. An entry counts only while its user, and the owner of the reservation that
 * made it, exist with the `uid` it was written for (users.ts says why).
 */
export class Grants {
  constructor(
    private readonly db: AuthDb,
    private readonly users: Users,
    private readonly groups: Groups,
  ) {}

  private get access() {
    return this.db.collections.access;
  }

  /**
   * ntfy's order: the user's own (and, for a user, their groups': the logged-in users' and
   * the named ones they are in) before everyone's, then the longest pattern, the user's own
   * before a group's, then write before read.
   */
  permission(username: string, topic: string): Promise<Permission | undefined> {
    return this.db.remembered(`p\0${username}\0${topic}`, async () => {
      const groups = username === everyone ? [] : [authenticated, ...(await this.groups.of(username)).map(groupHolder)];
      const entries = await this.matching(topic, { user: { $in: [username, everyone, ...groups] } });
      const ordered = entries.sort((a, b) => firstOf(
        Number(a.user === everyone) - Number(b.user === everyone),
        b.topic.length - a.topic.length,
        Number(a.user !== username) - Number(b.user !== username),
        Number(b.write) - Number(a.write),
      ));
      for (const e of ordered) if (await this.live(e)) return { read: e.read, write: e.write };
      return undefined;
    });
  }

  /** The entries within `scope` whose pattern matches `topic`. */
  async matching(topic: string, scope: Filter<AccessDoc>): Promise<AccessDoc[]> {
    const found = await Promise.all(candidateFilters(topic).map((filter) => this.access.find({ ...scope, ...filter }).toArray()));
    return found.flat().filter((e) => matches(e, topic));
  }

  /** Every entry that counts (alive), remembered whole until a change. */
  all(): Promise<readonly AccessEntry[]> {
    return this.db.remembered('all-access', async () => {
      const entries = await this.alive(await this.access.find({}).toArray());
      return entries.map((e) => ({ user: e.user, topic: e.topic, permission: { read: e.read, write: e.write } }));
    }, true);
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
  async put(holder: Holder, topic: string, p: Permission, owner: Holder | null, provisioned = false): Promise<void> {
    const entry = {
      user: holder.name,
      uid: holder.uid,
      ...patternFields(topic),
      read: p.read,
      write: p.write,
      owner: owner?.name ?? null,
      ownerUid: owner?.uid ?? null,
      provisioned,
    };
    await this.access.replaceOne({ _id: entryId(holder.name, topic) }, entry, { upsert: true });
  }

  /** Removes one entry, all of a user's (and those their reservations made), or every entry. */
  async reset(username?: string, topic?: string): Promise<void> {
    if (username === undefined) await this.access.deleteMany({});
    else if (topic === undefined) await this.access.deleteMany({ $or: [{ user: username }, { owner: username }] });
    else await this.access.deleteMany({ topic, $or: [{ user: username }, { owner: username }] });
  }

  /**
   * The listed entries are written first and the earlier ones no longer listed removed
   * after, so no entry that stays is ever missing, even to a concurrent read. Their users
   * are provisioned (checked by the caller), so exist by now.
   */
  async provision(grants: Provisioning['grants']): Promise<void> {
    for (const g of grants) {
      const holder = isBuiltIn(g.user) || holderGroup(g.user) !== undefined ? builtInHolder(g.user) : await this.users.holder(g.user);
      await this.put(holder, g.topic, g.permission, null, true);
    }
    await this.access.deleteMany({ provisioned: true, _id: { $nin: grants.map((g) => entryId(g.user, g.topic)) } });
  }

  /** The entries that count, their users asked in one query (listings may name thousands of owners). */
  async alive(entries: AccessDoc[]): Promise<AccessDoc[]> {
    const holders = entries.flatMap((e) => [[e.user, e.uid], [e.owner, e.ownerUid]] as const);
    const uids = await this.users.uids([...new Set(holders.flatMap(([name, uid]) => (uid === null || name === null ? [] : [name])))]);
    const counts = (name: string | null, uid: string | null): boolean => uid === null || (name !== null && uids.get(name) === uid);
    return entries.filter((e) => counts(e.user, e.uid) && counts(e.owner, e.ownerUid));
  }

  /** The same for one entry, from what is remembered: on the path of every request. */
  private async live(e: AccessDoc): Promise<boolean> {
    const counts = async (name: string | null, uid: string | null): Promise<boolean> =>
      uid === null || (name !== null && (await this.users.known(name))?.uid === uid);
    return (await counts(e.user, e.uid)) && (await counts(e.owner, e.ownerUid));
  }
}

/** User names and patterns hold no `/` (usernamePattern, topicPatternPattern), so this is unique. */
function entryId(username: string, topic: string): string {
  return `${username}/${topic}`;
}
