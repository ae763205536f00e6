import { PostgresJobRepository } from '@agendajs/postgres-backend';
import type pg from 'pg';
import { inTransaction } from './pool.js';
import { attachmentsSchema } from './attachments.js';
import { authSchema } from './auth/auth-db.js';
import { spendLedgerSchema } from './spend-ledger.js';
import { webPushSchema } from './webpush-store.js';

/**
 * The PostgreSQL schema. `messages` is the cache and the ordered log at once: `seq` is the
 * commit order within log `log` (one log for now; topics will hash into several, as on
 * MongoDB), handed out under the row lock of the log's `log_positions` row, so positions
 * are taken in commit order and a reader by `seq` never sees a later commit before an
 * earlier one. `json` holds the message exactly as delivered. Ids are unique across the
 * cache (ntfy's `mid`); the waiting index finds the scheduled messages a sequence id replaces.
 * `live_events` holds the `Cache: no` messages at their positions in the log, for the
 * other nodes' live feeds (live-feed.ts), which forget them after a minute.
 */
const schemaVersion = 1;

const createSchema = `
  CREATE TABLE schema_version (id int PRIMARY KEY, version int NOT NULL);
  CREATE TABLE log_positions (log int PRIMARY KEY, last bigint NOT NULL);
  INSERT INTO log_positions (log, last) VALUES (0, 0);
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
 */
export async function openSchema(pool: pg.Pool): Promise<void> {
  await inTransaction(pool, async (client) => {
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
      await client.query('INSERT INTO schema_version (id, version) VALUES (1, $1)', [schemaVersion]);
    }
    await new PostgresJobRepository({ pool, ensureSchema: true }).connect();
  });
}
