import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { importNtfy } from '../../src/migrate/ntfy/import.js';
import type { Summary } from '../../src/migrate/summary.js';
import { openStores } from '../../src/store/index.js';
import { publish, type Json } from '../support/clients.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { basic, ntfyFiles, quietOutput, tocsinConfig, v213, v213Summary } from './ntfy-fixtures.js';

async function poll(url: string, topic: string, query: string): Promise<unknown[]> {
  const text = await (await fetch(`${url}/${topic}/json?poll=1&${query}`)).text();
  return text.split('\n').filter(Boolean).map((line) => (JSON.parse(line) as Json).id);
}

/** Where an import goes: the database-url of a fresh database, or why there is none here. */
export interface ImportDatabase {
  freshUrl(label: string): Promise<string>;
  skip: string | false;
}

/** `tocsin import ntfy` into a shared database (`database-url`): the main path, as on the embedded stores. */
export function describeImportInto(name: string, database: ImportDatabase): void {
  describe(`import ntfy 2.13 into ${name}`, { skip: database.skip }, () => {
    const files = ntfyFiles('2.13.0');
    let target: ReturnType<typeof tocsinConfig>;
    let first: Summary;
    let s: TestServer;

    before(async () => {
      target = tocsinConfig({ 'database-url': await database.freshUrl('import') });
      first = await importNtfy({ config: target.config, source: files, dryRun: false, out: quietOutput() });
    });
    after(() => s?.server.close());

    it('imports every kind of record, and a second run adds nothing', async () => {
      assert.deepEqual(first.lines(false), v213Summary);
      const again = await importNtfy({ config: target.config, source: files, dryRun: false, out: quietOutput() });
      assert.deepEqual([again.addedOf('users'), again.addedOf('tokens'), again.addedOf('messages'), again.addedOf('attachment files')], [0, 0, 0, 0]);
      const stores = await openStores(target.config, { error: () => undefined, warn: () => undefined });
      after(() => stores.close());
      assert.deepEqual([await stores.cache.count(), await stores.cache.loadStats()], [12, 11]);
      assert.deepEqual(await stores.auth!.tokens('ben'), [{ token: v213.benToken, label: 'backups', expires: 0, lastAccess: 1795617031, lastOrigin: '127.0.0.1', provisioned: false }]);
      assert.deepEqual(await stores.auth!.reservations('ben'), [
        { topic: 'ben-news', everyone: { read: true, write: false } },
        { topic: 'ben-private', everyone: { read: false, write: false } },
      ]);
      assert.equal((await stores.auth!.user('carl'))?.tier?.code, 'ephemeral');
    });

    it('a server on the database continues since=<ntfy id>; old password, token and file work', async () => {
      s = await startTestServer(target.settings);
      assert.deepEqual(await poll(s.url, 'alerts', 'since=all&scheduled=1'), [...v213.alerts, v213.scheduled]);
      assert.deepEqual(await poll(s.url, 'alerts', `since=${v213.alerts[2]}`), v213.alerts.slice(3));
      const { json: fresh } = await publish(`${s.url}/alerts`, 'after the move');
      assert.deepEqual(await poll(s.url, 'alerts', `since=${v213.alerts[5]}`), [fresh.id]);
      assert.equal((await fetch(`${s.url}/v1/account`, { headers: { Authorization: basic('ben', 'ben-pass-2') } })).status, 200);
      const byToken = await fetch(`${s.url}/v1/account`, { headers: { Authorization: `Bearer ${v213.benToken}` } });
      assert.equal(((await byToken.json()) as Json).username, 'ben');
      const file = await fetch(`${s.url}/file/${v213.photos[0]}.png`);
      assert.deepEqual(Buffer.from(await file.arrayBuffer()), v213.photoBytes);
    });
  });
}
