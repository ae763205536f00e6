import { groupHolder } from '../../../model/access.js';
import { AlreadyExists, NotFound, Provisioned, type Group, type Membership, type MembershipSource, type Provisioning } from '../../auth-store.js';
import type { AuthDb } from './auth-db.js';
import { isDuplicateKey, newUid, type MemberDoc } from './collections.js';
import { compareText } from './order.js';
import type { Users } from './users.js';

/**
 * Named groups (collections `auth_groups`, `auth_group_members`); their access entries are
 * `Grants`' under `*NAME`, with no `uid` (as the built-in groups'). Without transactions
 * (FerretDB 1.24), a membership counts only while its group has the `gid` and its user
 * the `uid` it was written for, so a removal is done for every reader once the group's or
 * user's document is gone, and a later group or user of the name inherits nothing. A
 * group's entries are removed after its document; a crash in between leaves entries no
 * member can reach, which adding a group of that name clears first.
 */
export class Groups {
  constructor(
    private readonly db: AuthDb,
    private readonly users: Users,
  ) {}

  private get c() {
    return this.db.collections;
  }

  /** Every membership that counts, remembered whole until a change. */
  memberships(): Promise<readonly Membership[]> {
    return this.db.remembered('all-members', async () => (await this.alive(await this.c.members.find({}).toArray())).map((m) => ({ group: m.group, user: m.user })), true);
  }

  /** The named groups `username` is in, remembered (on the path of every request without auth-access-cache). */
  of(username: string): Promise<string[]> {
    return this.db.remembered(`g\0${username}`, async () => {
      const known = await this.users.known(username);
      if (!known) return [];
      const docs = await this.c.members.find({ user: username, uid: known.uid }).toArray();
      const gids = await this.gids(docs.map((m) => m.group));
      return docs.filter((m) => gids.get(m.group) === m.gid).map((m) => m.group);
    });
  }

  async all(): Promise<Group[]> {
    const [groups, members] = await Promise.all([this.c.groups.find({}).toArray(), this.c.members.find({}).toArray()]);
    const alive = await this.alive(members);
    return groups.sort((a, b) => compareText(a._id, b._id)).map((g) => ({
      name: g._id,
      provisioned: g.provisioned,
      members: alive.filter((m) => m.gid === g.gid).map((m) => m.user).sort(compareText),
    }));
  }

  async add(name: string): Promise<void> {
    if (await this.c.groups.findOne({ _id: name })) throw new AlreadyExists(`group ${name} already exists`);
    await this.c.access.deleteMany({ user: groupHolder(name) }); // what a removal cut short left (class comment)
    try {
      await this.c.groups.insertOne({ _id: name, gid: newUid(), provisioned: false });
    } catch (err) {
      if (isDuplicateKey(err)) throw new AlreadyExists(`group ${name} already exists`);
      throw err;
    }
  }

  async remove(name: string): Promise<void> {
    const doc = await this.c.groups.findOne({ _id: name });
    if (!doc) throw new NotFound(`group ${name} does not exist`);
    if (doc.provisioned) throw new Provisioned('group');
    await this.delete(name, doc.gid);
  }

  /** The group's `gid`: `NotFound` unless it exists. */
  async gid(name: string): Promise<string> {
    const doc = await this.c.groups.findOne({ _id: name }, { projection: { gid: 1 } });
    if (!doc) throw new NotFound(`group ${name} does not exist`);
    return doc.gid;
  }

  async addMember(group: string, user: string, source: MembershipSource = 'manual'): Promise<void> {
    const gid = await this.gid(group);
    const { uid } = await this.users.holder(user);
    await this.insert({ _id: `${gid}/${uid}`, group, gid, user, uid, source });
  }

  async removeMember(group: string, user: string): Promise<void> {
    const doc = await this.c.members.findOne({ group, gid: await this.gid(group), user });
    if (!doc) throw new NotFound(`user ${user} is not a member of group ${group}`);
    if (doc.source === 'provisioned') throw new Provisioned('group member');
    await this.c.members.deleteOne({ _id: doc._id });
  }

  async sync(user: string, groups: readonly string[]): Promise<void> {
    const { uid } = await this.users.holder(user);
    const gids = await this.gids(groups);
    for (const [group, gid] of gids) await this.insert({ _id: `${gid}/${uid}`, group, gid, user, uid, source: 'header' });
    await this.c.members.deleteMany({ user, uid, source: 'header', _id: { $nin: [...gids.values()].map((gid) => `${gid}/${uid}`) } });
  }

  /** Listed groups and memberships are written first, then earlier provisioned ones no longer listed go (as users.ts). */
  async provision(groups: NonNullable<Provisioning['groups']>): Promise<void> {
    const listed: string[] = [];
    for (const g of groups) {
      await this.c.groups.updateOne({ _id: g.name }, { $set: { provisioned: true }, $setOnInsert: { gid: newUid() } }, { upsert: true });
      const gid = await this.gid(g.name);
      for (const user of g.members) {
        const { uid } = await this.users.holder(user);
        const _id = `${gid}/${uid}`;
        await this.c.members.updateOne({ _id }, { $set: { group: g.name, gid, user, uid, source: 'provisioned' } }, { upsert: true });
        listed.push(_id);
      }
    }
    await this.c.members.deleteMany({ source: 'provisioned', _id: { $nin: listed } });
    const unlisted = await this.c.groups.find({ provisioned: true, _id: { $nin: groups.map((g) => g.name) } }).toArray();
    for (const doc of unlisted) await this.delete(doc._id, doc.gid);
  }

  /** The group document first: see the class comment. */
  private async delete(name: string, gid: string): Promise<void> {
    await this.c.groups.deleteOne({ _id: name, gid });
    await this.c.access.deleteMany({ user: groupHolder(name) });
    await this.c.members.deleteMany({ gid });
  }

  /** A membership already there stays as it is (its source too). */
  private async insert(doc: MemberDoc): Promise<void> {
    try {
      await this.c.members.insertOne(doc);
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
  }

  /**
   * The `gid` of each of `names` that exists. One lookup by `_id` each, not one `$in`:
   * FerretDB 1.24 reads the whole collection for `$in` (as users.ts `uids`).
   */
  private async gids(names: readonly string[]): Promise<Map<string, string>> {
    const docs = await Promise.all([...new Set(names)].map((name) => this.c.groups.findOne({ _id: name }, { projection: { gid: 1 } })));
    return new Map(docs.flatMap((d) => (d ? [[d._id, d.gid] as const] : [])));
  }

  /** The memberships that count: their group and user exist with the ids they were written for. */
  private async alive(members: MemberDoc[]): Promise<MemberDoc[]> {
    const [gids, uids] = await Promise.all([this.gids(members.map((m) => m.group)), this.users.uids([...new Set(members.map((m) => m.user))])]);
    return members.filter((m) => gids.get(m.group) === m.gid && uids.get(m.user) === m.uid);
  }
}
