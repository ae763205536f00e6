import { describe } from 'node:test';
import type { MessageCache } from '../../src/store/message-cache.js';
import { PostgresMessageCache } from '../../src/store/postgres/message-cache.js';
import { freshDatabase, postgresSkip } from '../support/postgres.js';
import type { Open } from './contracts/instances.js';
import { describeMessageCache } from './contracts/message-cache.contract.js';

/** A node's cache on its own pool; a location is the database's URL. */
const postgres: Open<MessageCache> = async (location) => {
  const url = location ?? (await freshDatabase('cache'));
  const cache = await PostgresMessageCache.open(url);
  return { instance: cache, location: url, close: () => cache.close() };
};

describe('PostgreSQL message cache', { skip: postgresSkip() }, () => {
  describeMessageCache('postgresql', postgres, { shared: true });
});
