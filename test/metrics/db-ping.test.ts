import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { loadConfig } from '../../src/config/load.js';
import { watchDatabasePing } from '../../src/metrics/db-ping.js';
import { openStores } from '../../src/store/index.js';
import { Mailbox } from '../support/clients.js';
import { LogCapture } from '../support/log.js';
import { ferretDbSkip, startFerretDb } from '../support/ferretdb.js';
import { freshDatabase, postgresSkip } from '../support/postgres.js';
import { Scrape } from '../support/prometheus.js';
import { startTestServer, tempDir } from '../support/server.js';
import { TcpProxy } from '../support/tcp-proxy.js';

/** ntfy_db_ping_seconds: the store's database pinged at start and every manager-interval. */

describe('metrics — ntfy_db_ping_seconds on SQLite', () => {
  it('is a gauge set by the ping at start: a read of the cache file well under a second, no failures', async () => {
    // Given a server on a cache file, with metrics on
    const s = await startTestServer({ 'cache-file': join(tempDir(), 'cache.db'), 'enable-metrics': true });
    after(() => s.server.close());
    // When scraped
    const scrape = await Scrape.of(`${s.url}/metrics`);
    // Then the ping at start set the gauge, and nothing failed
    assert.equal(scrape.type('ntfy_db_ping_seconds'), 'GAUGE');
    const seconds = scrape.value('ntfy_db_ping_seconds');
    assert.ok(seconds > 0 && seconds < 1, `${seconds} s`);
    assert.equal(scrape.value('tocsin_db_ping_failures_total'), 0);
  });
});

describe('metrics — ntfy_db_ping_seconds on PostgreSQL', { skip: postgresSkip(), timeout: 60_000 }, () => {
  it('times SELECT 1; a database that stops answering shows as the timeout and a failure; answering again, as fast', async () => {
    // Given the stores on a PostgreSQL reached through a proxy the test can freeze, pinged every second
    const [, name, dir] = /^postgres:\/\/postgres@\/(\w+)\?host=([^&]+)/.exec(await freshDatabase('ping')) as string[];
    const proxy = await TcpProxy.start({ path: `${decodeURIComponent(dir as string)}/.s.PGSQL.5432` });
    after(() => proxy.stop());
    const { config } = loadConfig({ flags: { 'database-url': `postgres://postgres@127.0.0.1:${proxy.port}/${name as string}` } });
    const log = new LogCapture();
    const stores = await openStores(config, log.logger);
    const pings = new Mailbox<{ seconds: number; ok: boolean }>();
    const watch = watchDatabasePing(() => stores.ping(), { databasePinged: (seconds, ok) => pings.put({ seconds, ok }) }, log.logger, 1000);
    after(async () => {
      proxy.thaw();
      await watch.stop();
      await stores.close();
    });
    // Then the ping at start answered at once
    const first = await pings.take(5000);
    assert.deepEqual(first.ok, true);
    assert.ok(first.seconds > 0 && first.seconds < 0.5, `${first.seconds} s`);
    // When the network freezes, then the next ping gives up at the interval (here 1 s), counted and logged
    proxy.freeze();
    const stalled = await pings.take(5000);
    assert.equal(stalled.ok, false);
    assert.ok(stalled.seconds >= 0.99 && stalled.seconds < 1.5, `${stalled.seconds} s`);
    const warning = await log.next((r) => r.msg === 'database ping failed');
    assert.match((warning.err as { message: string }).message, /no answer within 1000 ms/);
    // When it thaws, then a later ping answers in good time again
    proxy.thaw();
    let again = await pings.take(5000);
    for (let i = 0; i < 3 && !again.ok; i++) again = await pings.take(5000);
    assert.equal(again.ok, true);
    assert.ok(again.seconds < 0.5, `${again.seconds} s`);
  });

  it('stop does not wait for a ping that hangs; after the stores close, a ping rejects', async () => {
    const [, name, dir] = /^postgres:\/\/postgres@\/(\w+)\?host=([^&]+)/.exec(await freshDatabase('ping-stop')) as string[];
    const proxy = await TcpProxy.start({ path: `${decodeURIComponent(dir as string)}/.s.PGSQL.5432` });
    after(() => proxy.stop());
    const { config } = loadConfig({ flags: { 'database-url': `postgres://postgres@127.0.0.1:${proxy.port}/${name as string}` } });
    const stores = await openStores(config, new LogCapture().logger);
    // A ping that hangs: stop resolves at once, and reports nothing after
    proxy.freeze();
    const pings: boolean[] = [];
    const watch = watchDatabasePing(() => stores.ping(), { databasePinged: (_, ok) => pings.push(ok) }, new LogCapture().logger, 30_000);
    const started = performance.now();
    await watch.stop();
    assert.ok(performance.now() - started < 500, 'stop did not wait for the hung ping');
    assert.deepEqual(pings, []);
    proxy.thaw();
    // A pool that was ended: the ping rejects, a failure
    await stores.close();
    await assert.rejects(stores.ping(), /pool/i);
  });
});

describe('metrics — ntfy_db_ping_seconds on MongoDB (FerretDB)', { skip: ferretDbSkip(), timeout: 120_000 }, () => {
  it('times the ping command; after the stores close, a ping rejects', async () => {
    const ferret = await startFerretDb();
    after(() => ferret.stop());
    const url = ferret.url.replace('/?', `/${ferret.databaseName('ping')}?`);
    const stores = await openStores(loadConfig({ flags: { 'database-url': url } }).config, new LogCapture().logger);
    const pings = new Mailbox<{ seconds: number; ok: boolean }>();
    const watch = watchDatabasePing(() => stores.ping(), { databasePinged: (seconds, ok) => pings.put({ seconds, ok }) }, new LogCapture().logger, 60_000);
    const first = await pings.take(5000);
    await watch.stop();
    assert.equal(first.ok, true);
    assert.ok(first.seconds > 0 && first.seconds < 0.5, `${first.seconds} s`);
    await stores.close();
    await assert.rejects(stores.ping());
  });
});
