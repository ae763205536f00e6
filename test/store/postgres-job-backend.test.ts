import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { freshDatabase, messageStoreNode, postgresSkip } from '../support/postgres.js';
import { describeJobBackend } from './contracts/job-backend.contract.js';

/** Agenda's backend of a node's PostgreSQL store (@agendajs/postgres-backend, its schema made by the store). */
describe('PostgreSQL job backend', { skip: postgresSkip() }, () => {
  describeJobBackend('PostgreSQL', async (location) => {
    const url = location ?? (await freshDatabase('jobs'));
    const errors: unknown[] = [];
    const store = await messageStoreNode(url, errors);
    const close = async (): Promise<void> => {
      await store.close();
      assert.deepEqual(errors, []);
    };
    return { instance: store.jobs, location: url, close };
  });
});
