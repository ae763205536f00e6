import { randomName, type Role, type User } from '../../../model/access.js';
import type { Prefs, Tier } from '../../../model/account.js';
import { nowSeconds } from '../../../model/message.js';
import { AlreadyExists, NotFound, Provisioned, type ImportedUser, type Provisioning } from '../../auth-store.js';
import type { AuthDb } from './auth-db.js';
import { isDuplicateKey, newUid, type Holder, type UserDoc } from './collections.js';
import { compareText, firstOf } from './order.js';
import type { Tiers } from './tiers.js';

/** A user as remembered, with the `uid` their entries and tokens must carry to count. */
interface Known {
  user: User;
  uid: string;
}

/**
 * The users (collection `auth_users`, the name as `_id`): password hash, role, tier and
 * account preferences.
 *
 * Removing a user spans documents and there are no transactions on FerretDB 1.24: the
 * user document goes first, which is the removal for every reader (entries and tokens
 * count only for the `uid` of an existing user), then the entries and tokens of that
 * `uid`. A crash in between leaves rows nobody can use, and a user added under the name
 * later has a new `uid`, so gets none of them, nor anything a change racing the removal
 * on another node wrote after it.
 */
export class Users {
  constructor(
    private readonly db: AuthDb,
    private readonly tiers: Tiers,
  ) {}

  private get users() {
    return this.db.collections.users;
  }

  find(name: string): Promise<User | undefined> {
    return this.known(name).then((k) => k?.user);
  }

  /** Remembered, for readers; undefined for no such user. */
  known(name: string): Promise<Known | undefined> {
    return this.db.remembered(`u\0${name}`, async () => {
      const doc = await this.users.findOne({ _id: name });
      return doc ? { user: toUser(doc, doc.tier === null ? undefined : await this.tiers.find(doc.tier)), uid: doc.uid } : undefined;
    });
  }

  /** The user as a change writes for them, read afresh: `NotFound` unless they exist. */
  async holder(name: string): Promise<Holder & { uid: string }> {
    const doc = await this.users.findOne({ _id: name }, { projection: { uid: 1 } });
    if (!doc) throw new NotFound(`user ${name} does not exist`);
    return { name, uid: doc.uid };
  }

  /**
   * The `uid` of each of `names` that exists, read afresh (for listings). One lookup by
   * `_id` each, not one `$in`: FerretDB 1.24 reads the whole collection for `$in`.
   */
  async uids(names: readonly string[]): Promise<Map<string, string>> {
    const docs = await Promise.all(names.map((name) => this.users.findOne({ _id: name }, { projection: { uid: 1 } })));
    return new Map(docs.flatMap((d) => (d ? [[d._id, d.uid] as const] : [])));
  }

  async all(): Promise<User[]> {
    const [docs, tiers] = await Promise.all([this.users.find().toArray(), this.tiers.all()]);
    const byCode = new Map(tiers.map((t) => [t.code, t]));
    const users = docs.map((doc) => toUser(doc, doc.tier === null ? undefined : byCode.get(doc.tier)));
    return users.sort((a, b) => firstOf(Number(a.role === 'user') - Number(b.role === 'user'), compareText(a.name, b.name)));
  }

  count(): Promise<number> {
    return this.db.remembered('n\0users', () => this.users.countDocuments());
  }

  async add(name: string, hash: string, role: Role): Promise<void> {
    const doc: UserDoc = { _id: name, uid: newUid(), hash, role, tier: null, syncTopic: randomName('st_', 16), prefs: '{}', provisioned: false, created: nowSeconds() };
    try {
      await this.users.insertOne(doc);
    } catch (err) {
      if (isDuplicateKey(err)) throw new AlreadyExists(`user ${name} already exists`);
      throw err;
    }
  }

  async import(u: ImportedUser): Promise<boolean> {
    if (u.tier !== undefined && !(await this.tiers.find(u.tier))) throw new NotFound(`tier ${u.tier} does not exist`);
    const doc: UserDoc = {
      _id: u.name, uid: newUid(), hash: u.hash, role: u.role, tier: u.tier ?? null, syncTopic: u.syncTopic,
      prefs: JSON.stringify(u.prefs), provisioned: false, created: u.created,
    };
    try {
      await this.users.insertOne(doc);
      return true;
    } catch (err) {
      if (isDuplicateKey(err)) return false;
      throw err;
    }
  }

  async remove(name: string): Promise<void> {
    await this.delete(await this.unprovisioned(name));
  }

  async changePassword(name: string, hash: string): Promise<void> {
    await this.unprovisioned(name);
    await this.users.updateOne({ _id: name }, { $set: { hash } });
  }

  async changeRole(name: string, role: Role): Promise<void> {
    await this.unprovisioned(name);
    await this.setRole(name, role);
  }

  async changeTier(name: string, code: string | undefined): Promise<void> {
    if (code !== undefined && !(await this.tiers.find(code))) throw new NotFound(`tier ${code} does not exist`);
    await this.update(name, { tier: code ?? null });
  }

  async changePrefs(name: string, prefs: Prefs): Promise<void> {
    await this.update(name, { prefs: JSON.stringify(prefs) });
  }

  /**
   * Listed users are added or brought up to date first, then earlier provisioned users no
   * longer listed go. Provisioning runs at every start, so one a crash cut short is
   * completed by the next.
   */
  async provision(users: Provisioning['users']): Promise<void> {
    for (const u of users) {
      await this.users.updateOne(
        { _id: u.name },
        { $set: { hash: u.hash, provisioned: true }, $setOnInsert: { uid: newUid(), role: u.role, tier: null, syncTopic: randomName('st_', 16), prefs: '{}', created: nowSeconds() } },
        { upsert: true },
      );
      await this.setRole(u.name, u.role);
    }
    const unlisted = await this.users.find({ provisioned: true, _id: { $nin: users.map((u) => u.name) } }, { projection: { uid: 1 } }).toArray();
    for (const doc of unlisted) await this.delete({ name: doc._id, uid: doc.uid });
  }

  /** The user document first: see the class comment. */
  private async delete(user: { name: string; uid: string }): Promise<void> {
    const { name, uid } = user;
    await this.users.deleteOne({ _id: name, uid });
    await this.db.collections.tokens.deleteMany({ user: name, uid });
    await this.db.collections.phones.deleteMany({ user: name, uid });
    await this.db.collections.emails.deleteMany({ user: name, uid });
    await this.db.collections.primaryEmails.deleteMany({ uid });
    await this.db.collections.magicLinks.deleteMany({ uid });
    await this.db.collections.access.deleteMany({ $or: [{ user: name, uid }, { owner: name, ownerUid: uid }] });
  }

  private async setRole(name: string, role: Role): Promise<void> {
    await this.users.updateOne({ _id: name }, { $set: { role } });
    // An admin may do everything, so entries of their own would only mislead (as ntfy).
    if (role === 'admin') await this.db.collections.access.deleteMany({ user: name });
  }

  private async update(name: string, fields: Partial<UserDoc>): Promise<void> {
    const { matchedCount } = await this.users.updateOne({ _id: name }, { $set: fields });
    if (matchedCount === 0) throw new NotFound(`user ${name} does not exist`);
  }

  /** NotFound for a missing user, Provisioned for one server.yml owns; else the user as changes write for them. */
  private async unprovisioned(name: string): Promise<{ name: string; uid: string }> {
    const doc = await this.users.findOne({ _id: name }, { projection: { uid: 1, provisioned: 1 } });
    if (!doc) throw new NotFound(`user ${name} does not exist`);
    if (doc.provisioned) throw new Provisioned('user');
    return { name, uid: doc.uid };
  }
}

function toUser(doc: UserDoc, tier: Tier | undefined): User {
  return {
    name: doc._id,
    hash: doc.hash,
    role: doc.role,
    syncTopic: doc.syncTopic,
    prefs: JSON.parse(doc.prefs) as Prefs,
    provisioned: doc.provisioned,
    ...(tier && { tier }),
  };
}
