import { nowSeconds } from '../../../model/message.js';
import { AlreadyExists, NotFound, type AccountEmail, type MagicLink } from '../../auth-store.js';
import type { AuthFile } from './file.js';
import type { Users } from './users.js';

const selectLink = 'SELECT selector, hash, kind, user AS username, email, expires FROM magic_links';

/**
 * Users' e-mail addresses (table `emails`) and the magic links that verify an address or
 * reset a password (table `magic_links`); both go with their user by the foreign keys'
 * cascade. Following a link deletes it first, in the same transaction as what it does, so a
 * link works once however many requests follow it at the same moment.
 */
export class Emails {
  constructor(
    private readonly file: AuthFile,
    private readonly users: Users,
  ) {}

  of(username: string): AccountEmail[] {
    return this.file.remembered(`e\0${username}`, () => {
      const verified = this.file.sql('SELECT address, is_primary FROM emails WHERE user = ? ORDER BY address').all(username) as { address: string; is_primary: number }[];
      const pending = this.file.sql("SELECT DISTINCT email FROM magic_links WHERE user = ? AND kind = 'email-verify' AND expires >= ? ORDER BY email").pluck().all(username, nowSeconds()) as string[];
      return [
        ...verified.map((e) => ({ address: e.address, primary: e.is_primary === 1, pending: false })),
        ...pending.map((address) => ({ address, primary: false, pending: true })),
      ];
    });
  }

  addLink(link: MagicLink): void {
    this.users.mustExist(link.username);
    this.file.transaction(() => {
      if (link.kind === 'email-verify') this.file.write("DELETE FROM magic_links WHERE user = ? AND kind = 'email-verify' AND email = ?", link.username, link.email);
      else this.file.write('DELETE FROM magic_links WHERE user = ? AND kind = ?', link.username, link.kind);
      this.file.write('INSERT INTO magic_links (selector, hash, kind, user, email, expires) VALUES (?, ?, ?, ?, ?, ?)', link.selector, link.hash, link.kind, link.username, link.email, link.expires);
    });
  }

  link(selector: string): MagicLink | undefined {
    return this.file.sql(`${selectLink} WHERE selector = ?`).get(selector) as MagicLink | undefined;
  }

  verify(selector: string): boolean {
    return this.file.transaction(() => {
      const link = this.take(selector, 'email-verify');
      if (!link) return false;
      this.file.write('INSERT OR IGNORE INTO emails (user, address) VALUES (?, ?)', link.username, link.email);
      this.file.write(
        `UPDATE emails SET is_primary = 1 WHERE user = ? AND address = ?
           AND NOT EXISTS (SELECT 1 FROM emails WHERE is_primary = 1 AND (user = ? OR address = ?))`,
        link.username, link.email, link.username, link.email,
      );
      return true;
    });
  }

  resetPassword(selector: string, hash: string): boolean {
    return this.file.transaction(() => {
      const link = this.take(selector, 'password-reset');
      if (!link) return false;
      this.users.changePassword(link.username, hash); // Provisioned throws, and the transaction puts the link back
      return true;
    });
  }

  remove(username: string, address: string): void {
    this.file.transaction(() => {
      this.file.write('DELETE FROM emails WHERE user = ? AND address = ?', username, address);
      this.file.write("DELETE FROM magic_links WHERE user = ? AND kind = 'email-verify' AND email = ?", username, address);
    });
  }

  setPrimary(username: string, address: string): void {
    this.file.transaction(() => {
      if (!this.file.sql('SELECT 1 FROM emails WHERE user = ? AND address = ?').get(username, address)) throw new NotFound(`${address} is not a verified address of ${username}`);
      const owner = this.file.sql('SELECT user FROM emails WHERE address = ? AND is_primary = 1').pluck().get(address) as string | undefined;
      if (owner !== undefined && owner !== username) throw new AlreadyExists(`${address} is the primary address of another account`);
      this.file.write('UPDATE emails SET is_primary = 0 WHERE user = ? AND is_primary = 1', username);
      this.file.write('UPDATE emails SET is_primary = 1 WHERE user = ? AND address = ?', username, address);
    });
  }

  /** The user whose primary address this is. */
  primaryOwner(address: string): string | undefined {
    return this.file.sql('SELECT user FROM emails WHERE address = ? AND is_primary = 1').pluck().get(address) as string | undefined;
  }

  removeExpiredLinks(now: number): void {
    this.file.write('DELETE FROM magic_links WHERE expires < ?', now);
  }

  /** Within a transaction: deletes the link if it is of `kind`, answering it; undefined when another use took it first. */
  private take(selector: string, kind: MagicLink['kind']): MagicLink | undefined {
    const link = this.link(selector);
    return link && this.file.write('DELETE FROM magic_links WHERE selector = ? AND kind = ?', selector, kind).changes === 1 ? link : undefined;
  }
}
