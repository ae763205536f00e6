import { describe } from 'node:test';
import { openPool } from '../../src/store/postgres/pool.js';
import { openSchema } from '../../src/store/postgres/schema.js';
import { PostgresWebPushStore } from '../../src/store/postgres/webpush-store.js';
import { freshDatabase, postgresSkip } from '../support/postgres.js';
import { describeWebPushStore } from './contracts/webpush-store.contract.js';

describe('PostgreSQL web push subscriptions', { skip: postgresSkip() }, () => {
  describeWebPushStore('postgresql', async (location) => {
    const url = location ?? (await freshDatabase('webpush'));
    const pool = openPool(url);
    await openSchema(pool);
    const instance = new PostgresWebPushStore(pool);
    return { instance, location: url, close: () => pool.end() };
  });
});
