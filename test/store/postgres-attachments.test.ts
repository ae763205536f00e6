import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import { after, describe, it } from 'node:test';
import type pg from 'pg';
import { PostgresAttachments } from '../../src/store/postgres/attachments.js';
import { openPool } from '../../src/store/postgres/pool.js';
import { openSchema } from '../../src/store/postgres/schema.js';
import { freshDatabase, postgresSkip } from '../support/postgres.js';
import { describeAttachmentStore } from './contracts/attachment-store.contract.js';

const pools: pg.Pool[] = [];
after(() => Promise.all(pools.map((p) => p.end())));

/** A node's attachments on the database at `url` (a fresh one without), on a pool of its own. */
async function open(url?: string): Promise<{ store: PostgresAttachments; url: string; pool: pg.Pool }> {
  const at = url ?? (await freshDatabase('attachments'));
  const pool = openPool(at);
  pools.push(pool);
  await openSchema(pool);
  return { store: await PostgresAttachments.open(pool), url: at, pool };
}

describe('PostgreSQL attachments', { skip: postgresSkip() }, () => {
  describeAttachmentStore('postgresql', async (location) => {
    const { store, url } = await open(location);
    return { instance: store, location: url, close: () => store.close() };
  });

  it('a file of several chunks reads back whole and by ranges across chunks, from another node', async () => {
    // given: 600 KB (three chunk rows) uploaded on one node in uneven writes
    const { store, url, pool } = await open();
    const other = (await open(url)).store;
    after(() => Promise.all([store.close(), other.close()]));
    const bytes = randomBytes(600 * 1024);
    const upload = await store.create('big', 'o', () => true);
    for (let i = 0; i < bytes.length; i += 100_000) upload.write(bytes.subarray(i, i + 100_000));
    await upload.commit({ type: 'application/octet-stream', name: 'big.bin', expires: 0 });

    // then: stored in chunk rows, read whole and by ranges on the other node
    assert.equal((await pool.query<{ n: number }>("SELECT count(*) AS n FROM attachment_chunks WHERE file_id = 'big'")).rows[0]?.n, 3);
    assert.deepEqual(await buffer(await other.read('big')), bytes);
    for (const [start, end] of [[0, 0], [261_119, 261_120], [100, 522_300], [614_399, 614_399]] as const) {
      assert.deepEqual(await buffer(await other.read('big', { start, end })), bytes.subarray(start, end + 1), `${start}-${end}`);
    }
    // and: removed with its chunks
    await other.remove('big');
    assert.equal((await pool.query<{ n: number }>('SELECT count(*) AS n FROM attachment_chunks')).rows[0]?.n, 0);
  });
});
