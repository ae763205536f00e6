import { randomName, type Role, type User } from '../../../model/access.js';
import type { Prefs, Tier } from '../../../model/account.js';
import { nowSeconds } from '../../../model/message.js';
import { AlreadyExists, NotFound, Provisioned, type Provisioning } from '../../auth-store.js';
import type { AuthDb } from './auth-db.js';
import { isDuplicateKey, presentUser, type UserDoc } from './collections.js';
import type { Grants } from './grants.js';
import { compareText, firstOf } from './order.js';
import type { Tiers } from './tiers.js';

/**
 * The users (collection `auth_users`, the name as `_id`): password hash, role, tier and
 * account preferences.
 *
 * Removing a user spans documents and there are no transactions on FerretDB 1.24, so it
 * goes in an order a crash cannot make visible half-done: the user is marked `removing`
 * (one write, from which every reader takes them as gone), then their tokens and access
 * entries go, then the user document. Readers ignore tokens and entries of users who do
 * not exist (tokens.ts, grants.ts). A removal a crash left unfinished keeps the name taken
 * until it is finished: by the next open of the store, or by adding that name again, so a
 * new user of the name never inherits the old one's entries.
 */
export class Users {
  constructor(
    private readonly db: AuthDb,
    private readonly tiers: Tiers,
    private readonly grants: Grants,
  ) {}

  private get users() {
    return this.db.collections.users;
  }

  find(name: string): Promise<User | undefined> {
    return this.db.remembered(`u\0${name}`, async () => {
      const doc = await this.users.findOne({ _id: name, ...presentUser });
      return doc ? toUser(doc, doc.tier === null ? undefined : await this.tiers.find(doc.tier)) : undefined;
    });
  }

  async exists(name: string): Promise<boolean> {
    return (await this.find(name)) !== undefined;
  }

  /** Throws `NotFound` unless the user exists: what is changed for a user needs one. */
  async mustExist(name: string): Promise<void> {
    if (!(await this.exists(name))) throw new NotFound(`user ${name} does not exist`);
  }

  async all(): Promise<User[]> {
    const [docs, tiers] = await Promise.all([this.users.find(presentUser).toArray(), this.tiers.all()]);
    const byCode = new Map(tiers.map((t) => [t.code, t]));
    const users = docs.map((doc) => toUser(doc, doc.tier === null ? undefined : byCode.get(doc.tier)));
    return users.sort((a, b) => firstOf(Number(a.role === 'user') - Number(b.role === 'user'), compareText(a.name, b.name)));
  }

  count(): Promise<number> {
    return this.db.remembered('n\0users', () => this.users.countDocuments(presentUser));
  }

  async add(name: string, hash: string, role: Role): Promise<void> {
    const doc: UserDoc = { _id: name, hash, role, tier: null, syncTopic: randomName('st_', 16), prefs: '{}', provisioned: false, created: nowSeconds() };
    try {
      await this.users.insertOne(doc);
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      // The name may be held by a removal a crash left unfinished: finish it and try once more.
      if (!(await this.finishRemoval(name))) throw new AlreadyExists(`user ${name} already exists`);
      await this.add(name, hash, role);
    }
  }

  async remove(name: string): Promise<void> {
    await this.unprovisioned(name);
    await this.delete(name);
  }

  async changePassword(name: string, hash: string): Promise<void> {
    await this.unprovisioned(name);
    await this.users.updateOne({ _id: name, ...presentUser }, { $set: { hash } });
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
    await this.finishRemovals();
    for (const u of users) {
      await this.users.updateOne(
        { _id: u.name },
        { $set: { hash: u.hash, provisioned: true }, $setOnInsert: { role: u.role, tier: null, syncTopic: randomName('st_', 16), prefs: '{}', created: nowSeconds() } },
        { upsert: true },
      );
      await this.setRole(u.name, u.role);
    }
    const unlisted = await this.users.find({ provisioned: true, _id: { $nin: users.map((u) => u.name) }, ...presentUser }, { projection: { _id: 1 } }).toArray();
    for (const { _id } of unlisted) await this.delete(_id);
  }

  /** Finishes the removals a crash left unfinished (see the class comment). */
  async finishRemovals(): Promise<void> {
    const marked = await this.users.find({ removing: true }, { projection: { _id: 1 } }).toArray();
    for (const { _id } of marked) await this.finishRemoval(_id);
  }

  private async delete(name: string): Promise<void> {
    await this.users.updateOne({ _id: name }, { $set: { removing: true } });
    await this.finishRemoval(name);
  }

  /** Whether `name` was marked removed, in which case its tokens, entries and document are gone now. */
  private async finishRemoval(name: string): Promise<boolean> {
    if (!(await this.users.findOne({ _id: name, removing: true }, { projection: { _id: 1 } }))) return false;
    await this.db.collections.tokens.deleteMany({ user: name });
    await this.grants.reset(name);
    await this.users.deleteOne({ _id: name, removing: true });
    return true;
  }

  private async setRole(name: string, role: Role): Promise<void> {
    await this.users.updateOne({ _id: name, ...presentUser }, { $set: { role } });
    // An admin may do everything, so entries of their own would only mislead (as ntfy).
    if (role === 'admin') await this.grants.removeOwn(name);
  }

  private async update(name: string, fields: Partial<UserDoc>): Promise<void> {
    const { matchedCount } = await this.users.updateOne({ _id: name, ...presentUser }, { $set: fields });
    if (matchedCount === 0) throw new NotFound(`user ${name} does not exist`);
  }

  /** NotFound for a missing user, Provisioned for one server.yml owns. */
  private async unprovisioned(name: string): Promise<void> {
    const doc = await this.users.findOne({ _id: name, ...presentUser }, { projection: { provisioned: 1 } });
    if (!doc) throw new NotFound(`user ${name} does not exist`);
    if (doc.provisioned) throw new Provisioned('user');
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
