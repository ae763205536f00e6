import { after, describe } from 'node:test';
import type { MessageCache } from '../../src/store/message-cache.js';
import { PostgresMessageCache } from '../../src/store/postgres/message-cache.js';
import { openPool } from '../../src/store/postgres/pool.js';
import { openSchema } from '../../src/store/postgres/schema.js';
import { freshDatabase, postgresSkip } from '../support/postgres.js';
import type { Open } from './contracts/instances.js';
import { itBoundsDropRecords } from './contracts/drop-records.js';
import { describeMessageCache } from './contracts/message-cache.contract.js';

/** A node's cache on its own pool; a location is the database's URL (a new one has `logs` logs). */
const postgres =
  (logs: number): Open<MessageCache> =>
  async (location) => {
    const url = location ?? (await freshDatabase('cache'));
    const pool = openPool(url);
    const count = await openSchema(pool, logs);
    return { instance: new PostgresMessageCache(pool, { logs: count }), location: url, close: () => pool.end() };
  };

describe('PostgreSQL message cache', { skip: postgresSkip() }, () => {
  describeMessageCache('postgresql', postgres(1), { shared: true });
});

describe('PostgreSQL message cache dropped-message records', { skip: postgresSkip() }, () => {
  itBoundsDropRecords(async () => {
    const pool = openPool(await freshDatabase('drops'));
    after(() => pool.end());
    const logs = await openSchema(pool, 1);
    const rows = async (): Promise<number> => (await pool.query<{ n: number }>('SELECT count(*) AS n FROM topic_drops')).rows[0]?.n ?? -1;
    return { cache: new PostgresMessageCache(pool, { logs }), rows };
  });
});

describe('PostgreSQL message cache, topics in 4 logs', { skip: postgresSkip() }, () => {
  describeMessageCache('postgresql', postgres(4), { shared: true });
});
