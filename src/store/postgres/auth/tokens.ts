import { tokenMaxCount, type User } from '../../../model/access.js';
import { nowSeconds } from '../../../model/message.js';
import { encodeScopes, withScopes } from '../../../model/token-scope.js';
import { Provisioned, type Provisioning, type Token } from '../../auth-store.js';
import type { AuthDb, Queryable } from './auth-db.js';
import type { Users } from './users.js';

/** Schema version 3: a token's scopes as JSON text (model/token-scope.ts); '' for an unscoped token. */
export const tokenScopesSchema = `
  ALTER TABLE tokens ADD COLUMN scopes text NOT NULL DEFAULT '';
`;

type TokenRow = Omit<Token, 'scopes'> & { scopes: string };

const selectToken = 'SELECT token, label, expires, last_access AS "lastAccess", last_origin AS "lastOrigin", provisioned, scopes FROM tokens';

/** The access tokens (`tk_…`) a user logs in with instead of the password. */
export class Tokens {
  constructor(
    private readonly db: AuthDb,
    private readonly users: Users,
  ) {}

  /** The owner of an unexpired token, with the token's scopes. */
  async userOf(token: string): Promise<User | undefined> {
    const owner = await this.db.remembered(`t\0${token}`, async () => {
      const [row] = await this.db.rows<{ user_name: string; expires: number; scopes: string }>('SELECT user_name, expires, scopes FROM tokens WHERE token = $1', [token]);
      return row && withScopes(row);
    });
    if (!owner || (owner.expires !== 0 && owner.expires <= nowSeconds())) return undefined;
    const user = await this.users.find(owner.user_name);
    return user && owner.scopes ? { ...user, scopes: owner.scopes } : user;
  }

  /** Not a change: the last use is shown, never decided on, so it keeps what is remembered. */
  async touch(token: string, when: number, origin: string): Promise<void> {
    await this.db.pool.query('UPDATE tokens SET last_access = $1, last_origin = $2 WHERE token = $3', [when, origin, token]);
  }

  add(username: string, t: Token): Promise<void> {
    return this.db.change(async (c) => {
      await this.users.mustExist(c, username);
      await c.query('INSERT INTO tokens (token, user_name, label, expires, last_access, last_origin, scopes) VALUES ($1, $2, $3, $4, $5, $6, $7)', [t.token, username, t.label, t.expires, t.lastAccess, t.lastOrigin, encodeScopes(t.scopes)]);
      // Counted first, as ntfy: the count is an index lookup, the pruning a scan of the user's tokens.
      const count = (await this.db.rows<{ n: number }>('SELECT count(*) AS n FROM tokens WHERE user_name = $1', [username], c))[0]?.n ?? 0;
      if (count <= tokenMaxCount) return;
      // ntfy keeps `ORDER BY expires DESC`, which ranks never-expiring tokens (0) last and
      // could drop the token just handed out; here those are kept first.
      await c.query(
        `DELETE FROM tokens WHERE user_name = $1 AND NOT provisioned AND token NOT IN (
           SELECT token FROM tokens WHERE user_name = $1
           ORDER BY token = $2 DESC, provisioned DESC, expires = 0 DESC, expires DESC, added DESC LIMIT $3)`,
        [username, t.token, tokenMaxCount],
      );
    });
  }

  async of(username: string): Promise<Token[]> {
    return (await this.db.rows<TokenRow>(`${selectToken} WHERE user_name = $1 ORDER BY expires = 0 DESC, expires DESC, token`, [username])).map(withScopes);
  }

  change(username: string, token: string, change: { label?: string; expires?: number }): Promise<Token | undefined> {
    return this.db.change(async (c) => {
      await this.unprovisioned(c, username, token);
      await c.query('UPDATE tokens SET label = coalesce($1, label), expires = coalesce($2, expires) WHERE user_name = $3 AND token = $4', [change.label ?? null, change.expires ?? null, username, token]);
      const [row] = await this.db.rows<TokenRow>(`${selectToken} WHERE user_name = $1 AND token = $2`, [username, token], c);
      return row && withScopes(row);
    });
  }

  remove(username: string, token: string): Promise<boolean> {
    return this.db.change(async (c) => {
      await this.unprovisioned(c, username, token);
      return ((await c.query('DELETE FROM tokens WHERE user_name = $1 AND token = $2', [username, token])).rowCount ?? 0) > 0;
    });
  }

  async removeExpired(now: number): Promise<void> {
    await this.db.change((c) => c.query('DELETE FROM tokens WHERE expires > 0 AND expires <= $1', [now]));
  }

  /** Earlier provisioned tokens no longer listed go; listed ones are added or brought up to date. */
  async provision(c: Queryable, tokens: Provisioning['tokens']): Promise<void> {
    await c.query('DELETE FROM tokens WHERE provisioned AND NOT (token = ANY($1))', [tokens.map((t) => t.token)]);
    for (const t of tokens) {
      await c.query(
        `INSERT INTO tokens (token, user_name, label, expires, last_access, last_origin, provisioned) VALUES ($1, $2, $3, 0, 0, '', true)
         ON CONFLICT (token) DO UPDATE SET user_name = excluded.user_name, label = excluded.label, expires = 0, provisioned = true`,
        [t.token, t.user, t.label],
      );
    }
  }

  private async unprovisioned(c: Queryable, username: string, token: string): Promise<void> {
    const [row] = await this.db.rows<{ provisioned: boolean }>('SELECT provisioned FROM tokens WHERE user_name = $1 AND token = $2', [username, token], c);
    if (row?.provisioned) throw new Provisioned('token');
  }
}
