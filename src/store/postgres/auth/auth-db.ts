import type pg from 'pg';
import { PolledReadCache } from '../../polled-read-cache.js';
import { readFailure } from '../errors.js';
import { inTransaction } from '../pool.js';

/**
 * Access control's tables (made by schema.ts), those of the auth-file (sqlite/auth/schema.ts)
 * with `user` as `user_name` (a reserved word here), and `auth_version`, the number every
 * change moves in its transaction.
 */
export const authSchema = `
  CREATE TABLE auth_version (id int PRIMARY KEY, n bigint NOT NULL);
  INSERT INTO auth_version (id, n) VALUES (1, 0);
  CREATE TABLE tiers (
    code text PRIMARY KEY,
    name text NOT NULL,
    message_limit bigint NOT NULL,
    message_expiry_duration bigint NOT NULL,
    email_limit bigint NOT NULL,
    call_limit bigint NOT NULL,
    reservation_limit bigint NOT NULL,
    attachment_file_size_limit bigint NOT NULL,
    attachment_total_size_limit bigint NOT NULL,
    attachment_expiry_duration bigint NOT NULL,
    attachment_bandwidth_limit bigint NOT NULL
  );
  CREATE TABLE users (
    name text PRIMARY KEY,
    hash text NOT NULL,
    role text NOT NULL,
    tier text REFERENCES tiers (code),
    sync_topic text NOT NULL,
    prefs text NOT NULL DEFAULT '{}',
    provisioned boolean NOT NULL DEFAULT false,
    created bigint NOT NULL
  );
  CREATE INDEX users_tier ON users (tier);
  CREATE TABLE access (
    user_name text NOT NULL,
    topic text NOT NULL,
    read boolean NOT NULL,
    write boolean NOT NULL,
    owner text,
    provisioned boolean NOT NULL DEFAULT false,
    PRIMARY KEY (user_name, topic)
  );
  CREATE TABLE tokens (
    token text PRIMARY KEY,
    user_name text NOT NULL REFERENCES users (name) ON DELETE CASCADE ON UPDATE CASCADE,
    label text NOT NULL,
    expires bigint NOT NULL,
    last_access bigint NOT NULL,
    last_origin text NOT NULL,
    provisioned boolean NOT NULL DEFAULT false,
    added bigserial
  );
  CREATE INDEX tokens_user ON tokens (user_name);
  CREATE TABLE phones (
    user_name text NOT NULL REFERENCES users (name) ON DELETE CASCADE ON UPDATE CASCADE,
    number text NOT NULL,
    PRIMARY KEY (user_name, number)
  );
`;

/** A connection to query: the pool for a read, a transaction's client within a change. */
export type Queryable = pg.Pool | pg.PoolClient;

/**
 * The database of access control, shared by the store's parts: reads remembered in one
 * cache (PolledReadCache: this instance's changes clear it; other instances' are seen by
 * polling `auth_version`), and every change through `change`, one transaction that moves
 * `auth_version` with its writes, so no part changes the tables behind another's cache.
 */
export class AuthDb {
  private readonly cache: PolledReadCache;

  constructor(readonly pool: pg.Pool) {
    this.cache = new PolledReadCache(async () => (await pool.query<{ n: number }>('SELECT n FROM auth_version WHERE id = 1')).rows[0]?.n ?? 0, readFailure);
  }

  /** `whole`: a read of a whole table, kept apart from the request keys (PolledReadCache). */
  remembered<T>(key: string, read: () => Promise<T>, whole = false): Promise<T> {
    return this.cache.get(key, read, whole);
  }

  /** Rows of a read (not remembered). */
  async rows<R extends pg.QueryResultRow>(sql: string, params: unknown[] = [], db: Queryable = this.pool): Promise<R[]> {
    return (await db.query<R>(sql, params)).rows;
  }

  /** Runs `work` as one change: committed with `auth_version` moved, or nothing of it. */
  async change<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    try {
      return await inTransaction(this.pool, async (client) => {
        const done = await work(client);
        await client.query('UPDATE auth_version SET n = n + 1 WHERE id = 1');
        return done;
      });
    } finally {
      this.cache.clear();
    }
  }

  close(): void {
    this.cache.close();
  }
}
