import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import type { ReplayQuery, Since } from '../../src/store/message-cache.js';
import { PostgresMessageCache } from '../../src/store/postgres/message-cache.js';
import { openPool } from '../../src/store/postgres/pool.js';
import { HostRouter, parseHostList, ReadOnlyServer } from '../../src/store/postgres/hosts.js';
import { Replicas } from '../../src/store/postgres/replicas.js';
import { openSchema } from '../../src/store/postgres/schema.js';
import { createDatabase, launchPostgres, locatePostgres, postgresSkip, type PostgresCluster, type PostgresInstall } from '../support/postgres.js';
import { entry, idOf, message } from './contracts/cache-messages.js';

/**
 * Replays on a real streaming replica (two clusters started here) whose replay the test
 * pauses: a replay reads from the replica only where the replica holds every position it
 * must cover, and from the primary otherwise.
 */
describe('PostgreSQL read replicas (database-replica-urls)', { skip: postgresSkip(), timeout: 60_000 }, () => {
  let primary: PostgresCluster;
  let standby: PostgresCluster;
  let database: string;
  let cache: PostgresMessageCache;
  let replicas: Replicas;
  const pools: pg.Pool[] = [];

  const ids = async (since: Since, livePosition?: number): Promise<string[]> => {
    const query: ReplayQuery = { topic: 'r', since, scheduled: false, maxBytes: 1e9, livePosition };
    return (await cache.replay(query)).json.map(idOf);
  };

  /** Waits until the standby has replayed up to the primary's newest position. */
  async function caughtUp(): Promise<void> {
    const newest = async (pool: pg.Pool): Promise<number> => (await pool.query<{ last: number }>('SELECT last FROM log_positions')).rows[0]?.last ?? 0;
    const [onPrimary, onStandby] = pools as [pg.Pool, pg.Pool];
    for (let tries = 0; (await newest(onStandby)) < (await newest(onPrimary)); tries++) {
      assert.ok(tries < 200, 'the standby did not catch up within 10 s');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  before(async () => {
    const install = locatePostgres() as PostgresInstall;
    primary = await launchPostgres(install, 'replica-primary');
    database = await createDatabase(primary, 'replicas');
    const pool = openPool(primary.url(database));
    await openSchema(pool);
    standby = await launchPostgres(install, 'replica-standby', { standbyOf: { sockets: primary.sockets, name: 'replica' } });
    const replica = openPool(standby.url(database));
    pools.push(pool, replica);
    replicas = new Replicas([replica]);
    cache = new PostgresMessageCache(pool, { replicas });
  });
  after(async () => {
    await Promise.all(pools.map((pool) => pool.end().catch(() => undefined)));
    await standby?.stop();
    await primary?.stop();
  });

  it('reads from the replica once it holds the position; from the primary while it lags, or does not know the id', async () => {
    // given: three messages the standby holds, then replay paused there and a fourth on the primary
    const [m1, m2, m3, m4] = [message('r'), message('r'), message('r'), message('r')];
    const { seqs } = await cache.add([entry(m1), entry(m2), entry(m3)]);
    const third = seqs[2] as number;
    await caughtUp();
    await (pools[1] as pg.Pool).query('SELECT pg_wal_replay_pause()');
    await cache.add([entry(m4)]);

    // then: a subscription attached at the third's position replays from the replica (the fourth comes live)
    assert.deepEqual(await ids({ kind: 'all' }, third), [m1.id, m2.id, m3.id]);
    // and: a poll must see every commit: the replica lags, so the primary answers
    assert.deepEqual(await ids({ kind: 'all' }), [m1.id, m2.id, m3.id, m4.id]);
    // and: a subscription attached after the fourth cannot be served by the replica either
    assert.deepEqual(await ids({ kind: 'all' }, third + 1), [m1.id, m2.id, m3.id, m4.id]);
    // and: since= an id the replica has not replayed goes to the primary (nothing after it), not "unknown id: everything"
    assert.deepEqual(await ids({ kind: 'id', id: m4.id }, third), []);
    assert.deepEqual(await ids({ kind: 'id', id: m1.id }, third), [m2.id, m3.id]);

    // when: the replica replays again
    await (pools[1] as pg.Pool).query('SELECT pg_wal_replay_resume()');
    await caughtUp();
    // then: it serves the poll too
    assert.deepEqual(await ids({ kind: 'all' }), [m1.id, m2.id, m3.id, m4.id]);
  });

  it('the host router passes over the standby when writes are asked for (target_session_attrs=read-write), not the primary', async () => {
    const router = new HostRouter(parseHostList(`postgres://postgres@/${database}?host=${standby.sockets},${primary.sockets}&target_session_attrs=read-write`));
    const connect = async (host: string): Promise<pg.Client> => {
      const client = new pg.Client({ ...router.config({}), host });
      await client.connect();
      return client;
    };
    const [onStandby, onPrimary] = [await connect(standby.sockets), await connect(primary.sockets)];
    try {
      await assert.rejects(router.check(onStandby), (err: Error) => err instanceof ReadOnlyServer && err.message === `${standby.sockets}:5432 does not take writes (a standby, or read-only): trying the next host`);
      assert.equal(router.config({}).host, primary.sockets, 'moved on to the primary');
      await router.check(onPrimary);
      assert.equal(router.failures, 1);
    } finally {
      await Promise.all([onStandby.end(), onPrimary.end()]);
    }
  });

  it('a replica that fails leaves replays to the primary, at once and while it rests', async () => {
    // given: the standby stopped
    await standby.stop();
    // then: replays answer from the primary, the first one too
    const before = await ids({ kind: 'all' });
    assert.equal(before.length, 4);
    assert.equal(replicas.pick(), undefined, 'the failed replica rests');
    assert.deepEqual(await ids({ kind: 'all' }, 1), before);
  });
});
