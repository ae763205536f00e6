import { AlreadyExists } from '../../auth-store.js';
import type { AuthDb } from './auth-db.js';
import { isDuplicateKey } from './collections.js';
import { compareText } from './order.js';
import type { Users } from './users.js';

/**
 * Users' verified phone numbers (collection `auth_phones`). A number counts only while its
 * user exists with the `uid` it was added for (users.ts says why); the unique `_id`
 * (`uid/number`) refuses a number twice with one atomic insert.
 */
export class Phones {
  constructor(
    private readonly db: AuthDb,
    private readonly users: Users,
  ) {}

  private get phones() {
    return this.db.collections.phones;
  }

  /** Ordered by their text, as the auth-file's primary key orders them. */
  of(username: string): Promise<string[]> {
    return this.db.remembered(`p\0${username}`, async () => {
      const known = await this.users.known(username);
      if (!known) return [];
      const docs = await this.phones.find({ user: username, uid: known.uid }, { projection: { number: 1 } }).toArray();
      return docs.map((d) => d.number).sort(compareText);
    });
  }

  async add(username: string, number: string): Promise<void> {
    const { uid } = await this.users.holder(username);
    try {
      await this.phones.insertOne({ _id: `${uid}/${number}`, user: username, uid, number });
    } catch (err) {
      if (isDuplicateKey(err)) throw new AlreadyExists(`user ${username} has phone number ${number} already`);
      throw err;
    }
  }

  async remove(username: string, number: string): Promise<void> {
    await this.phones.deleteMany({ user: username, number });
  }
}
