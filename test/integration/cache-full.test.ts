import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { publish, type Json } from '../support/clients.js';
import { startTestServer, tempDir, type TestServer } from '../support/server.js';

/**
 * The cache's disk full: SQLite's `max_page_count` makes the file full at a few hundred
 * KB, and SQLite then answers SQLITE_FULL exactly as for ENOSPC. Publishes that do not fit
 * get 507/50702 and nothing of them is stored; what was acknowledged stays; freeing space
 * (here an operator deleting rows from another connection) lets publishing go on with no
 * restart.
 */
const dir = tempDir();
const file = join(dir, 'cache.db');
let s: TestServer;
before(async () => {
  s = await startTestServer({ 'cache-file': file, 'cache-startup-queries': 'pragma max_page_count = 120' });
});
after(() => s.server.close());

const body = 'x'.repeat(2000);

async function poll(topic: string): Promise<Json[]> {
  const text = await (await fetch(`${s.url}/${topic}/json?poll=1`)).text();
  return text.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Json);
}

describe('cache full', () => {
  it('refuses with 507/50702 and stores none of it, keeps what was acknowledged, and recovers when space returns', async () => {
    const acknowledged: string[] = [];
    let refused: Json | undefined;
    // Bursts of 8 share group commits, as concurrent publishers do.
    for (let round = 0; round < 200 && !refused; round++) {
      const answers = await Promise.all(Array.from({ length: 8 }, () => publish(`${s.url}/fill`, body)));
      for (const { status, json } of answers) {
        if (status === 200) acknowledged.push(json.id as string);
        else {
          assert.equal(status, 507);
          refused = json;
        }
      }
    }
    assert.ok(refused, 'the cache filled up');
    assert.equal(refused.code, 50702);
    // The refused batch was rolled back whole, so single messages may still fit: fill up one by one.
    let single = await publish(`${s.url}/fill`, body);
    for (let n = 0; n < 100 && single.status === 200; n++) {
      acknowledged.push(single.json.id as string);
      single = await publish(`${s.url}/fill`, body);
    }
    assert.deepEqual([single.status, single.json.code], [507, 50702]);
    assert.equal((await publish(`${s.url}/fill`, body)).status, 507, 'full stays full');
    assert.ok(acknowledged.length > 20, `${acknowledged.length} fit before`);
    assert.deepEqual((await poll('fill')).map((m) => m.id), acknowledged, 'every acknowledged message, and only those');

    assert.deepEqual(await (await fetch(`${s.url}/v1/health`)).json(), { healthy: true });
    const admin = new Database(file);
    admin.prepare("DELETE FROM messages WHERE topic = 'fill'").run();
    admin.close();
    const after = await publish(`${s.url}/fill`, 'space again');
    assert.equal(after.status, 200);
    assert.deepEqual((await poll('fill')).map((m) => m.message), ['space again']);
  });
});
