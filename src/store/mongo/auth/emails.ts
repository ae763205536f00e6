import { nowSeconds } from '../../../model/message.js';
import { AlreadyExists, NotFound, Provisioned, type AccountEmail, type MagicLink } from '../../auth-store.js';
import type { AuthDb } from './auth-db.js';
import { isDuplicateKey, type MagicLinkDoc } from './collections.js';
import { compareText } from './order.js';
import type { Users } from './users.js';

/**
 * Users' e-mail addresses and magic links (collections `auth_emails`, `auth_primary_emails`,
 * `auth_magic_links`). As phone numbers, they count only while their user exists with the
 * `uid` they were written for (users.ts). Without transactions, a link is used once by its
 * atomic delete: of requests following it at once only the one whose delete removed it acts.
 * A primary address is a document keyed by the address, so an address is the primary of one
 * account at most; two changes of one user's primary racing each other may leave the user
 * with two (the first by its text counts) or none, never another account's.
 */
export class Emails {
  constructor(
    private readonly db: AuthDb,
    private readonly users: Users,
  ) {}

  private get c() {
    return this.db.collections;
  }

  of(username: string): Promise<AccountEmail[]> {
    return this.db.remembered(`em\0${username}`, async () => {
      const known = await this.users.known(username);
      if (!known) return [];
      const { uid } = known;
      const [verified, primaries, pending] = await Promise.all([
        this.c.emails.find({ user: username, uid }).toArray(),
        this.c.primaryEmails.find({ user: username, uid }).toArray(),
        this.c.magicLinks.find({ user: username, uid, kind: 'email-verify', expires: { $gte: nowSeconds() } }).toArray(),
      ]);
      const primary = primaries.map((p) => p._id).sort(compareText)[0];
      const verifiedAddresses = verified.map((e) => e.address).sort(compareText);
      const pendingAddresses = [...new Set(pending.map((l) => l.email))].sort(compareText);
      return [
        ...verifiedAddresses.map((address) => ({ address, primary: address === primary, pending: false })),
        ...pendingAddresses.map((address) => ({ address, primary: false, pending: true })),
      ];
    });
  }

  async addLink(link: MagicLink): Promise<void> {
    const { uid } = await this.users.holder(link.username);
    const scope = link.kind === 'email-verify' ? { uid, kind: link.kind, email: link.email } : { uid, kind: link.kind };
    await this.c.magicLinks.deleteMany(scope);
    await this.c.magicLinks.insertOne({ _id: link.selector, hash: link.hash, kind: link.kind, user: link.username, uid, email: link.email, expires: link.expires });
  }

  async link(selector: string): Promise<MagicLink | undefined> {
    const doc = await this.c.magicLinks.findOne({ _id: selector });
    return doc && (await this.live(doc)) ? toLink(doc) : undefined;
  }

  async verify(selector: string): Promise<boolean> {
    const doc = await this.take(selector, 'email-verify');
    if (!doc) return false;
    const { user, uid, email: address } = doc;
    await this.c.emails.updateOne({ _id: `${uid}/${address}` }, { $setOnInsert: { user, uid, address } }, { upsert: true });
    if (await this.c.primaryEmails.findOne({ uid })) return true;
    try {
      await this.c.primaryEmails.insertOne({ _id: address, user, uid });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err; // another account's primary: it stays a secondary here
    }
    return true;
  }

  async resetPassword(selector: string, hash: string): Promise<boolean> {
    const doc = await this.c.magicLinks.findOne({ _id: selector, kind: 'password-reset' });
    if (!doc || !(await this.live(doc))) return false;
    if ((await this.users.find(doc.user))?.provisioned) throw new Provisioned('user');
    if (!(await this.take(selector, 'password-reset'))) return false;
    await this.users.changePassword(doc.user, hash);
    return true;
  }

  async remove(username: string, address: string): Promise<void> {
    const holder = await this.held(username);
    if (!holder) return; // no user, so nothing of theirs
    const { uid } = holder;
    await this.c.emails.deleteOne({ _id: `${uid}/${address}` });
    await this.c.primaryEmails.deleteOne({ _id: address, uid });
    await this.c.magicLinks.deleteMany({ uid, kind: 'email-verify', email: address });
  }

  async setPrimary(username: string, address: string): Promise<void> {
    const { uid } = await this.users.holder(username);
    if (!(await this.c.emails.findOne({ _id: `${uid}/${address}` }))) throw new NotFound(`${address} is not a verified address of ${username}`);
    try {
      await this.c.primaryEmails.insertOne({ _id: address, user: username, uid });
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
      const owner = await this.c.primaryEmails.findOne({ _id: address });
      if (owner?.uid !== uid) throw new AlreadyExists(`${address} is the primary address of another account`);
    }
    await this.c.primaryEmails.deleteMany({ uid, _id: { $ne: address } });
  }

  async primaryOwner(address: string): Promise<string | undefined> {
    const doc = await this.c.primaryEmails.findOne({ _id: address });
    if (!doc) return undefined;
    return (await this.users.known(doc.user))?.uid === doc.uid ? doc.user : undefined;
  }

  async removeExpiredLinks(now: number): Promise<void> {
    await this.c.magicLinks.deleteMany({ expires: { $lt: now } });
  }

  /** Reads the link, then deletes it if of `kind`: it is this call's only when its delete removed it, and its user is still the one it was made for. */
  private async take(selector: string, kind: MagicLink['kind']): Promise<MagicLinkDoc | undefined> {
    const doc = await this.c.magicLinks.findOne({ _id: selector, kind });
    if (!doc) return undefined;
    const { deletedCount } = await this.c.magicLinks.deleteOne({ _id: selector, kind });
    return deletedCount === 1 && (await this.live(doc)) ? doc : undefined;
  }

  /** Whether the link's user still exists with the `uid` it was made for (read afresh). */
  private async live(doc: MagicLinkDoc): Promise<boolean> {
    return (await this.held(doc.user))?.uid === doc.uid;
  }

  /** The user as changes write for them, or undefined when there is none. */
  private async held(name: string): Promise<{ uid: string } | undefined> {
    try {
      return await this.users.holder(name);
    } catch (err) {
      if (err instanceof NotFound) return undefined;
      throw err;
    }
  }
}

function toLink(doc: MagicLinkDoc): MagicLink {
  return { selector: doc._id, hash: doc.hash, kind: doc.kind, username: doc.user, email: doc.email, expires: doc.expires };
}
