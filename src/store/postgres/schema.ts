import { PostgresJobRepository } from '@agendajs/postgres-backend';
import type pg from 'pg';
import { defaultShards } from '../topic-logs.js';
import { inTransaction } from './pool.js';
import { attachmentsSchema } from './attachments.js';
import { authSchema } from './auth/auth-db.js';
import { emailsSchema } from './auth/emails.js';
import { groupsSchema } from './auth/groups.js';
import { tokenScopesSchema } from './auth/tokens.js';
import { spendLedgerSchema } from './spend-ledger.js';
import { topicDropsSchema } from './topic-drops.js';
import { webPushSchema } from './webpush-store.js';
import { receiptsSchema } from './receipt-store.js';

/**
 * The PostgreSQL schema. `messages` is the cache and the ordered logs at once: topics hash
 * into `database-shards` logs (topic-logs.ts, as on MongoDB), one `log_positions` row each,
 * their number fixed when the database is made; `seq` is the commit order within log
 * `log`, handed out under the row lock of the log's `log_positions` row, so positions
 * are taken in commit order and a reader by `seq` never sees a later commit before an
 * earlier one. `json` holds the message exactly as delivered. Ids are unique across the
 * cache (ntfy's `mid`); the waiting index finds the scheduled messages a sequence id replaces.
 * `live_events` holds the `Cache: no` messages at their positions in the log, for the
 * other nodes' live feeds (live-feed.ts), which forget them after a minute.
 */
/**
 * Step `i` takes a database from version `i + 1` to `i + 2`: 2 adds the e-mail addresses
 * and magic links (ntfy 2.25), 3 the scopes of topic-scoped tokens, 4 the records of
 * dropped messages that replay gaps are told by (topic-drops.ts), 5 the receipts of
 * alerts repeated until acknowledged (receipt-store.ts), 6 named groups (auth/groups.ts).
 */
const migrations: readonly string[] = [emailsSchema, tokenScopesSchema, topicDropsSchema, receiptsSchema, groupsSchema];

const schemaVersion = migrations.length + 1;

const createSchema = `
  CREATE TABLE schema_version (id int PRIMARY KEY, version int NOT NULL);
  CREATE TABLE log_positions (log int PRIMARY KEY, last bigint NOT NULL);
  CREATE TABLE messages (
    log int NOT NULL,
    seq bigint NOT NULL,
    id text NOT NULL,
    topic text NOT NULL,
    time bigint NOT NULL,
    expires bigint NOT NULL,
    published boolean NOT NULL,
    json text NOT NULL,
    sequence_id text,
    PRIMARY KEY (log, seq)
  );
  CREATE UNIQUE INDEX messages_id ON messages (id);
  CREATE INDEX messages_topic ON messages (topic, time, seq);
  CREATE INDEX messages_expires ON messages (expires) WHERE published;
  CREATE INDEX messages_waiting ON messages (topic, sequence_id) WHERE NOT published;
  CREATE TABLE live_events (log int NOT NULL, seq bigint NOT NULL, time bigint NOT NULL, json text NOT NULL, PRIMARY KEY (log, seq));
  CREATE TABLE stats (key text PRIMARY KEY, value bigint NOT NULL);
`;

/**
 * Creates the schema, once however many nodes start at the same moment: the first takes a
 * transaction-scoped advisory lock, the others wait for it and find the schema there. A
 * database of a newer Tocsin is refused; later versions migrate from the version recorded.
 * Agenda's jobs table is made under the same lock by its backend's own statements
 * (@agendajs/postgres-backend, whose `ensureSchema` the store then turns off): two nodes
 * running its CREATE … IF NOT EXISTS at once collide in PostgreSQL's catalog.
 *
 * Answers how many message logs the database has: `shards` of them for a new database (0:
 * defaultShards), which an existing one must have if `shards` is not 0, since its topics
 * are placed by that count.
 */
export async function openSchema(pool: pg.Pool, shards = 0): Promise<number> {
  return inTransaction(pool, async (client) => {
    await client.query("SELECT pg_advisory_xact_lock(hashtext('tocsin schema'))");
    const exists = (await client.query<{ exists: boolean }>("SELECT to_regclass('schema_version') IS NOT NULL AS exists")).rows[0]?.exists;
    const version = exists ? (await client.query<{ version: number }>('SELECT version FROM schema_version WHERE id = 1')).rows[0]?.version : undefined;
    if (version !== undefined && version > schemaVersion) throw new Error(`database schema version ${version} is newer than this Tocsin (${schemaVersion})`);
    if (version === undefined) {
      await client.query(createSchema);
      await client.query(webPushSchema);
      await client.query(spendLedgerSchema);
      await client.query(attachmentsSchema);
      await client.query(authSchema);
      for (const step of migrations) await client.query(step);
      await client.query('INSERT INTO log_positions (log, last) SELECT log, 0 FROM generate_series(0, $1 - 1) AS log', [shards || defaultShards]);
      await client.query('INSERT INTO schema_version (id, version) VALUES (1, $1)', [schemaVersion]);
    } else if (version < schemaVersion) {
      for (const step of migrations.slice(version - 1)) await client.query(step);
      await client.query('UPDATE schema_version SET version = $1 WHERE id = 1', [schemaVersion]);
    }
    await new PostgresJobRepository({ pool, ensureSchema: true }).connect();
    const logs = (await client.query<{ n: number }>('SELECT count(*) AS n FROM log_positions')).rows[0]?.n ?? 0;
    if (shards !== 0 && shards !== logs) throw new Error(`database-shards is ${shards}, but the database's messages are in ${logs} logs: topics are placed by that count, so it cannot change; set database-shards to ${logs}, or to 0 to take the database's`);
    return logs;
  });
}
