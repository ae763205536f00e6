import type pg from 'pg';
import { nowSeconds } from '../../../model/message.js';
import { AlreadyExists, NotFound, type AccountEmail, type MagicLink } from '../../auth-store.js';
import type { AuthDb } from './auth-db.js';
import type { Users } from './users.js';

/**
 * The tables of users' e-mail addresses and magic links (ntfy 2.25), as the auth-file's
 * (sqlite/auth/schema.ts, version 3): at most one primary address per user, an address the
 * primary of one account at most. Made with the other auth tables in a new database, and
 * added to a database of schema version 1 (schema.ts).
 */
export const emailsSchema = `
  CREATE TABLE emails (
    user_name text NOT NULL REFERENCES users (name) ON DELETE CASCADE ON UPDATE CASCADE,
    address text NOT NULL,
    is_primary boolean NOT NULL DEFAULT false,
    PRIMARY KEY (user_name, address)
  );
  CREATE UNIQUE INDEX emails_primary_user ON emails (user_name) WHERE is_primary;
  CREATE UNIQUE INDEX emails_primary_address ON emails (address) WHERE is_primary;
  CREATE TABLE magic_links (
    selector text PRIMARY KEY,
    hash text NOT NULL,
    kind text NOT NULL,
    user_name text NOT NULL REFERENCES users (name) ON DELETE CASCADE ON UPDATE CASCADE,
    email text NOT NULL,
    expires bigint NOT NULL
  );
  CREATE INDEX magic_links_user ON magic_links (user_name, kind, email);
  CREATE INDEX magic_links_expires ON magic_links (expires);
`;

const linkColumns = 'selector, hash, kind, user_name AS username, email, expires';
const uniqueViolation = '23505';

/** Users' addresses and magic links; following a link deletes it in the transaction that acts on it, so it works once. */
export class Emails {
  constructor(
    private readonly db: AuthDb,
    private readonly users: Users,
  ) {}

  of(username: string): Promise<AccountEmail[]> {
    return this.db.remembered(`em\0${username}`, async () => {
      const verified = await this.db.rows<{ address: string; is_primary: boolean }>('SELECT address, is_primary FROM emails WHERE user_name = $1 ORDER BY address COLLATE "C"', [username]);
      const pending = await this.db.rows<{ email: string }>(
        "SELECT DISTINCT email COLLATE \"C\" AS email FROM magic_links WHERE user_name = $1 AND kind = 'email-verify' AND expires >= $2 ORDER BY 1",
        [username, nowSeconds()],
      );
      return [
        ...verified.map((e) => ({ address: e.address, primary: e.is_primary, pending: false })),
        ...pending.map((e) => ({ address: e.email, primary: false, pending: true })),
      ];
    });
  }

  addLink(link: MagicLink): Promise<void> {
    return this.db.change(async (c) => {
      await this.users.mustExist(c, link.username);
      if (link.kind === 'email-verify') await c.query("DELETE FROM magic_links WHERE user_name = $1 AND kind = 'email-verify' AND email = $2", [link.username, link.email]);
      else await c.query('DELETE FROM magic_links WHERE user_name = $1 AND kind = $2', [link.username, link.kind]);
      await c.query('INSERT INTO magic_links (selector, hash, kind, user_name, email, expires) VALUES ($1, $2, $3, $4, $5, $6)', [link.selector, link.hash, link.kind, link.username, link.email, link.expires]);
    });
  }

  async link(selector: string): Promise<MagicLink | undefined> {
    const [row] = await this.db.rows<MagicLink>(`SELECT ${linkColumns} FROM magic_links WHERE selector = $1`, [selector]);
    return row;
  }

  verify(selector: string): Promise<boolean> {
    return this.db.change(async (c) => {
      const link = await this.take(c, selector, 'email-verify');
      if (!link) return false;
      await c.query('INSERT INTO emails (user_name, address) VALUES ($1, $2) ON CONFLICT DO NOTHING', [link.username, link.email]);
      // Two accounts verifying one address at once may both find it free; the index refuses
      // the second promotion, which then stays a verified secondary, as a later one would.
      await c.query('SAVEPOINT promote');
      try {
        await c.query(
          `UPDATE emails SET is_primary = true WHERE user_name = $1 AND address = $2
             AND NOT EXISTS (SELECT 1 FROM emails WHERE is_primary AND (user_name = $1 OR address = $2))`,
          [link.username, link.email],
        );
        await c.query('RELEASE SAVEPOINT promote');
      } catch (err) {
        if ((err as { code?: string }).code !== uniqueViolation) throw err;
        await c.query('ROLLBACK TO SAVEPOINT promote');
      }
      return true;
    });
  }

  resetPassword(selector: string, hash: string): Promise<boolean> {
    return this.db.change(async (c) => {
      const link = await this.take(c, selector, 'password-reset');
      if (!link) return false;
      await this.users.setPassword(c, link.username, hash); // Provisioned rolls the link's deletion back
      return true;
    });
  }

  remove(username: string, address: string): Promise<void> {
    return this.db.change(async (c) => {
      await c.query('DELETE FROM emails WHERE user_name = $1 AND address = $2', [username, address]);
      await c.query("DELETE FROM magic_links WHERE user_name = $1 AND kind = 'email-verify' AND email = $2", [username, address]);
    });
  }

  async setPrimary(username: string, address: string): Promise<void> {
    try {
      await this.db.change(async (c) => {
        const [own] = await this.db.rows('SELECT 1 FROM emails WHERE user_name = $1 AND address = $2', [username, address], c);
        if (!own) throw new NotFound(`${address} is not a verified address of ${username}`);
        const [owner] = await this.db.rows<{ user_name: string }>('SELECT user_name FROM emails WHERE address = $1 AND is_primary', [address], c);
        if (owner && owner.user_name !== username) throw new AlreadyExists(`${address} is the primary address of another account`);
        await c.query('UPDATE emails SET is_primary = false WHERE user_name = $1 AND is_primary', [username]);
        await c.query('UPDATE emails SET is_primary = true WHERE user_name = $1 AND address = $2', [username, address]);
      });
    } catch (err) {
      // Another account made it its primary between the check and the update.
      if ((err as { code?: string }).code === uniqueViolation) throw new AlreadyExists(`${address} is the primary address of another account`);
      throw err;
    }
  }

  async primaryOwner(address: string): Promise<string | undefined> {
    const [row] = await this.db.rows<{ user_name: string }>('SELECT user_name FROM emails WHERE address = $1 AND is_primary', [address]);
    return row?.user_name;
  }

  async removeExpiredLinks(now: number): Promise<void> {
    await this.db.change((c) => c.query('DELETE FROM magic_links WHERE expires < $1', [now]));
  }

  /** Deletes the link if it is of `kind`, answering it; undefined when another use took it first. */
  private async take(c: pg.PoolClient, selector: string, kind: MagicLink['kind']): Promise<MagicLink | undefined> {
    const [row] = await this.db.rows<MagicLink>(`DELETE FROM magic_links WHERE selector = $1 AND kind = $2 RETURNING ${linkColumns}`, [selector, kind], c);
    return row;
  }
}
