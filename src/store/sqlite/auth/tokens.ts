import { tokenMaxCount, type User } from '../../../model/access.js';
import { nowSeconds } from '../../../model/message.js';
import { encodeScopes, withScopes } from '../../../model/token-scope.js';
import { Provisioned, type Provisioning, type Token } from '../../auth-store.js';
import type { AuthFile } from './file.js';
import type { Users } from './users.js';

interface TokenRow extends Omit<Token, 'provisioned' | 'scopes'> {
  provisioned: number;
  scopes: string | null;
}

const selectToken = 'SELECT token, label, expires, last_access AS lastAccess, last_origin AS lastOrigin, provisioned = 1 AS provisioned, scopes FROM tokens LEFT JOIN token_scopes USING (token)';

/** The access tokens (`tk_…`) a user logs in with instead of the password. */
export class Tokens {
  constructor(
    private readonly file: AuthFile,
    private readonly users: Users,
  ) {}

  /** The owner of an unexpired token, with the token's scopes. */
  userOf(token: string): User | undefined {
    const owner = this.file.remembered(`t\0${token}`, () => {
      const row = this.file.sql('SELECT user, expires, scopes FROM tokens LEFT JOIN token_scopes USING (token) WHERE token = ?').get(token) as { user: string; expires: number; scopes: string | null } | undefined;
      return row && withScopes(row);
    });
    if (!owner || (owner.expires !== 0 && owner.expires <= nowSeconds())) return undefined;
    const user = this.users.find(owner.user);
    return user && owner.scopes ? { ...user, scopes: owner.scopes } : user;
  }

  /** Not a `write`: the last use is shown, never decided on, so it keeps what is remembered. */
  touch(token: string, when: number, origin: string): void {
    this.file.sql('UPDATE tokens SET last_access = ?, last_origin = ? WHERE token = ?').run(when, origin, token);
  }

  add(username: string, t: Token): void {
    this.users.mustExist(username);
    this.file.transaction(() => {
      this.file.write('INSERT INTO tokens (token, user, label, expires, last_access, last_origin) VALUES (?, ?, ?, ?, ?, ?)',
        t.token, username, t.label, t.expires, t.lastAccess, t.lastOrigin,
      );
      if (t.scopes?.length) this.file.write('INSERT INTO token_scopes (token, scopes) VALUES (?, ?)', t.token, encodeScopes(t.scopes));
      // Counted first, as ntfy: the count is an index lookup, the pruning a scan of the user's tokens.
      const count = this.file.sql('SELECT COUNT(*) FROM tokens WHERE user = ?').pluck().get(username) as number;
      if (count <= tokenMaxCount) return;
      // ntfy keeps `ORDER BY expires DESC`, which ranks never-expiring tokens (0) last and
      // could drop the token just handed out; here those are kept first.
      this.file.write(
        `DELETE FROM tokens WHERE user = ? AND provisioned = 0 AND token NOT IN (
           SELECT token FROM tokens WHERE user = ?
           ORDER BY token = ? DESC, provisioned DESC, expires = 0 DESC, expires DESC, rowid DESC LIMIT ?)`,
        username, username, t.token, tokenMaxCount,
      );
    });
  }

  of(username: string): Token[] {
    return (this.file.sql(`${selectToken} WHERE user = ? ORDER BY expires = 0 DESC, expires DESC, token`).all(username) as TokenRow[]).map(toToken);
  }

  change(username: string, token: string, change: { label?: string; expires?: number }): Token | undefined {
    this.unprovisioned(username, token);
    this.file.write('UPDATE tokens SET label = coalesce(?, label), expires = coalesce(?, expires) WHERE user = ? AND token = ?',
      change.label ?? null, change.expires ?? null, username, token,
    );
    const row = this.file.sql(`${selectToken} WHERE user = ? AND token = ?`).get(username, token) as TokenRow | undefined;
    return row && toToken(row);
  }

  remove(username: string, token: string): boolean {
    this.unprovisioned(username, token);
    return this.file.write('DELETE FROM tokens WHERE user = ? AND token = ?', username, token).changes > 0;
  }

  removeExpired(now: number): void {
    this.file.write('DELETE FROM tokens WHERE expires > 0 AND expires <= ?', now);
  }

  /** Earlier provisioned tokens no longer listed go; listed ones are added or brought up to date. */
  provision(tokens: Provisioning['tokens']): void {
    const listed = new Set(tokens.map((t) => t.token));
    const earlier = this.file.sql('SELECT token FROM tokens WHERE provisioned = 1').pluck().all() as string[];
    for (const token of earlier.filter((t) => !listed.has(t))) this.file.write('DELETE FROM tokens WHERE token = ?', token);
    for (const t of tokens) {
      this.file.write(
        `INSERT INTO tokens (token, user, label, expires, last_access, last_origin, provisioned) VALUES (?, ?, ?, 0, 0, '', 1)
         ON CONFLICT (token) DO UPDATE SET user = excluded.user, label = excluded.label, expires = 0, provisioned = 1`,
        t.token, t.user, t.label,
      );
    }
  }

  private unprovisioned(username: string, token: string): void {
    const provisioned = this.file.sql('SELECT provisioned FROM tokens WHERE user = ? AND token = ?').pluck().get(username, token) as number | undefined;
    if (provisioned === 1) throw new Provisioned('token');
  }
}

function toToken(row: TokenRow): Token {
  return { ...withScopes(row), provisioned: row.provisioned === 1 };
}
