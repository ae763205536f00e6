import { ObjectId, type Filter } from 'mongodb';
import { tokenMaxCount, type User } from '../../../model/access.js';
import { nowSeconds } from '../../../model/message.js';
import { encodeScopes, withScopes } from '../../../model/token-scope.js';
import { Provisioned, type Provisioning, type Token } from '../../auth-store.js';
import type { AuthDb } from './auth-db.js';
import type { TokenDoc } from './collections.js';
import { compareText, firstOf } from './order.js';
import type { Users } from './users.js';

/**
 * The access tokens (`tk_…`, collection `auth_tokens`, the token as `_id`) a user logs in
 * with instead of the password. A token counts only while its user exists with the `uid`
 * it was made for (users.ts says why).
 */
export class Tokens {
  constructor(
    private readonly db: AuthDb,
    private readonly users: Users,
  ) {}

  private get tokens() {
    return this.db.collections.tokens;
  }

  /** The owner of an unexpired token, with the token's scopes. */
  async userOf(token: string): Promise<User | undefined> {
    const owner = await this.db.remembered(`t\0${token}`, async () => {
      const doc = await this.tokens.findOne({ _id: token }, { projection: { user: 1, uid: 1, expires: 1, scopes: 1 } });
      return doc && withScopes(doc);
    });
    if (!owner || (owner.expires !== 0 && owner.expires <= nowSeconds())) return undefined;
    const known = await this.users.known(owner.user);
    if (known?.uid !== owner.uid) return undefined;
    return owner.scopes ? { ...known.user, scopes: owner.scopes } : known.user;
  }

  /** Not a change: the last use is shown, never decided on, so nothing remembered is forgotten. */
  async touch(token: string, when: number, origin: string): Promise<void> {
    await this.tokens.updateOne({ _id: token }, { $set: { lastAccess: when, lastOrigin: origin } });
  }

  /**
   * Inserted first, then the user's tokens beyond tokenMaxCount go, those that expire
   * first (ntfy's CreateToken). ntfy keeps `ORDER BY expires DESC`, which ranks
   * never-expiring tokens (0) last and could drop the token just handed out; here the new
   * one, provisioned and never-expiring ones are kept first, then the later expiries, then
   * the newer of equal ones. Two instances adding tokens to one user at once may each
   * prune with the other's new token among the rest: the user keeps tokenMaxCount or fewer.
   */
  async add(username: string, t: Token): Promise<void> {
    const { uid } = await this.users.holder(username);
    await this.tokens.insertOne({ _id: t.token, user: username, uid, label: t.label, expires: t.expires, lastAccess: t.lastAccess, lastOrigin: t.lastOrigin, provisioned: false, added: new ObjectId(), ...(t.scopes?.length && { scopes: encodeScopes(t.scopes) }) });
    // Counted first, as ntfy: the count is an index lookup, the pruning a read of the user's tokens.
    if ((await this.tokens.countDocuments({ user: username, uid })) <= tokenMaxCount) return;
    const all = await this.tokens.find({ user: username, uid }, { projection: { expires: 1, provisioned: 1, added: 1 } }).toArray();
    all.sort((a, b) => firstOf(
      Number(b._id === t.token) - Number(a._id === t.token),
      Number(b.provisioned) - Number(a.provisioned),
      Number(b.expires === 0) - Number(a.expires === 0),
      b.expires - a.expires,
      compareText(b.added.toHexString(), a.added.toHexString()), // ObjectId hex: time first
    ));
    const dropped = all.slice(tokenMaxCount).map((d) => d._id);
    await this.tokens.deleteMany({ _id: { $in: dropped }, provisioned: false });
  }

  async of(username: string): Promise<Token[]> {
    const uid = await this.uidOf(username);
    if (uid === undefined) return [];
    const docs = await this.tokens.find({ user: username, uid }).toArray();
    docs.sort((a, b) => firstOf(Number(b.expires === 0) - Number(a.expires === 0), b.expires - a.expires, compareText(a._id, b._id)));
    return docs.map(toToken);
  }

  async change(username: string, token: string, change: { label?: string; expires?: number }): Promise<Token | undefined> {
    const uid = await this.uidOf(username);
    if (uid === undefined) return undefined;
    const filter = { _id: token, user: username, uid };
    await this.unprovisioned(filter);
    const fields = { ...(change.label !== undefined && { label: change.label }), ...(change.expires !== undefined && { expires: change.expires }) };
    if (Object.keys(fields).length > 0) await this.tokens.updateOne(filter, { $set: fields });
    const doc = await this.tokens.findOne(filter);
    return doc ? toToken(doc) : undefined;
  }

  async remove(username: string, token: string): Promise<boolean> {
    const uid = await this.uidOf(username);
    if (uid === undefined) return false;
    const filter = { _id: token, user: username, uid };
    await this.unprovisioned(filter);
    return (await this.tokens.deleteOne(filter)).deletedCount > 0;
  }

  async removeExpired(now: number): Promise<void> {
    await this.tokens.deleteMany({ expires: { $gt: 0, $lte: now } });
  }

  /** Listed tokens are added or brought up to date first, then earlier provisioned ones no longer listed go. */
  async provision(tokens: Provisioning['tokens']): Promise<void> {
    for (const t of tokens) {
      const { uid } = await this.users.holder(t.user); // provisioned (checked by the caller), so there by now
      await this.tokens.updateOne(
        { _id: t.token },
        { $set: { user: t.user, uid, label: t.label, expires: 0, provisioned: true }, $setOnInsert: { lastAccess: 0, lastOrigin: '', added: new ObjectId() } },
        { upsert: true },
      );
    }
    await this.tokens.deleteMany({ provisioned: true, _id: { $nin: tokens.map((t) => t.token) } });
  }

  /** The user's `uid`, read afresh: their tokens are those of their name and it. */
  private async uidOf(username: string): Promise<string | undefined> {
    return (await this.users.uids([username])).get(username);
  }

  private async unprovisioned(filter: Filter<TokenDoc>): Promise<void> {
    const doc = await this.tokens.findOne(filter, { projection: { provisioned: 1 } });
    if (doc?.provisioned) throw new Provisioned('token');
  }
}

function toToken(d: TokenDoc): Token {
  const { scopes } = withScopes(d);
  return { token: d._id, label: d.label, expires: d.expires, lastAccess: d.lastAccess, lastOrigin: d.lastOrigin, provisioned: d.provisioned, ...(scopes && { scopes }) };
}
