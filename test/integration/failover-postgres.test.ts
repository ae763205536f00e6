import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import pg from 'pg';
import { LineStream, publish, type Json } from '../support/clients.js';
import { createDatabase, launchPostgres, locatePostgres, postgresSkip, type PostgresInstall } from '../support/postgres.js';
import { spawnServer, type ChildServer } from '../support/server.js';

/**
 * Losing the primary: two Tocsin nodes on a PostgreSQL primary with a synchronous
 * streaming standby (Debian's server, two clusters started here), the URL naming both
 * with target_session_attrs=read-write. Under publishes on both nodes the primary is
 * killed (SIGKILL, every process of it) and the standby promoted; the nodes carry on
 * without a restart, and every publish they acknowledged is on the new primary once and
 * reaches subscribers that resume with `since=`.
 */

/** A subscriber that follows a topic on a node and, when its stream ends or breaks, resumes it with `since=` its last message. */
class Follower {
  readonly ids: string[] = [];
  /** Each message's time (seconds), by id. */
  readonly times = new Map<string, number>();
  reconnects = 0;
  private stopped = false;
  private stream: LineStream | undefined;
  readonly done: Promise<void>;

  constructor(
    private readonly url: string,
    ready: () => void,
  ) {
    this.done = this.follow(ready);
  }

  private async follow(ready: () => void): Promise<void> {
    while (!this.stopped) {
      const last = this.ids[this.ids.length - 1];
      this.stream = new LineStream(`${this.url}/json${last ? `?since=${last}` : this.reconnects > 0 ? '?since=all' : ''}`);
      try {
        for (;;) {
          const event = JSON.parse(await this.stream.next(60_000)) as Json;
          if (event.event === 'open') ready();
          if (event.event !== 'message') continue;
          this.ids.push(event.id as string);
          this.times.set(event.id as string, event.time as number);
        }
      } catch {
        // Ended, broke off or refused (503 while no server takes writes): resume shortly.
      }
      if (this.stopped) return;
      this.reconnects++;
      await sleep(100);
    }
  }

  async until(count: number, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.ids.length < count && Date.now() < deadline) await sleep(50);
  }

  /**
   * What it received, in time order and otherwise as received: a replay's order. Live
   * messages come in commit order; a replay (a poll, a `since=`) orders by time, then
   * commit order, as ntfy's. The two differ where a commit held across the failover
   * committed after a publish that came later (and so was stamped later).
   */
  inTimeOrder(): string[] {
    return [...this.ids].sort((a, b) => (this.times.get(a) ?? 0) - (this.times.get(b) ?? 0));
  }

  stop(): Promise<void> {
    this.stopped = true;
    this.stream?.close();
    return this.done;
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** What `step` resolves to; a step still pending after `ms` fails the test, naming it (a node must answer within its database bounds). */
async function within<T>(step: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: still pending after ${ms} ms`)), ms)));
  try {
    return await Promise.race([step, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The ids of `topic` a poll of `node` answers, once it answers 200. */
async function stored(node: ChildServer, topic: string): Promise<string[]> {
  for (let tries = 0; ; tries++) {
    const res = await fetch(`${node.url}/${topic}/json?poll=1&since=all`);
    if (res.status === 200) return (await res.text()).split('\n').filter(Boolean).map((line) => (JSON.parse(line) as Json).id as string);
    assert.ok(tries < 100, `poll still answers ${res.status}`);
    await sleep(100);
  }
}

describe('PostgreSQL failover — a synchronous standby promoted under load', { skip: postgresSkip(), timeout: 240_000 }, () => {
  it('every acknowledged publish is on the new primary once and reaches every subscriber once, in one order', async (t) => {
    // given: a primary whose commits wait for the standby, the standby, a database on them
    const install = locatePostgres() as PostgresInstall;
    const primary = await within(launchPostgres(install, 'primary', { settings: { synchronous_commit: 'on', synchronous_standby_names: 'standby' } }), 20_000, 'the primary starting');
    after(() => primary.stop());
    const standby = await within(launchPostgres(install, 'standby', { standbyOf: { sockets: primary.sockets, name: 'standby' } }), 20_000, 'the standby starting');
    after(() => standby.stop());
    // (its commit waits for the standby to stream)
    const database = await within(createDatabase(primary, 'failover'), 20_000, 'CREATE DATABASE on the primary');
    const url = `postgres://postgres@/${database}?host=${encodeURIComponent(`${primary.sockets},${standby.sockets}`)}&port=5432&target_session_attrs=read-write`;
    // and: two nodes on that URL (the second also reading replays from the standby), a following subscriber on each
    const replica = standby.url(database);
    const nodes = [await spawnServer(['--database-url', url]), await spawnServer(['--database-url', url, '--database-replica-urls', replica])];
    let opened = 0;
    const followers = nodes.map((node) => new Follower(`${node.url}/fo`, () => opened++));
    after(() => Promise.all(followers.map((f) => f.stop())));
    await within((async () => {
      while (opened < 2) await sleep(20);
    })(), 20_000, 'both subscribers open');

    // when: four publishers on each node publish until 2 s after the standby's promotion,
    // the primary killed 1.5 s in and the standby promoted 1 s after that
    const acknowledged: string[] = [];
    let attempted = 0;
    let failed = 0;
    const unexpected: string[] = [];
    let publishing = true;
    let killedAt = 0;
    let promotedAt = 0;
    let firstAfterPromotion = 0;
    const publishers = nodes.flatMap((node, n) =>
      Array.from({ length: 4 }, async (_, p) => {
        for (let k = 0; publishing; k++) {
          attempted++;
          const { status, json } = await within(publish(`${node.url}/fo`, `n${n}-p${p}-${k}`), 20_000, `publish n${n}-p${p}-${k}`);
          if (status === 200) {
            acknowledged.push(json.id as string);
            if (promotedAt && !firstAfterPromotion) firstAfterPromotion = Date.now();
          } else {
            // 50301: its commit failed; 50302: a read before it (the publisher's access) found no server.
            if (status !== 503 || (json.code !== 50301 && json.code !== 50302)) unexpected.push(`${status} ${JSON.stringify(json)}`);
            failed++;
            await sleep(20);
          }
        }
      }),
    );
    await sleep(1500);
    const beforeKill = acknowledged.length;
    primary.kill();
    killedAt = Date.now();
    await sleep(1000);
    await within(standby.promote(), 20_000, 'pg_ctl promote');
    promotedAt = Date.now();
    while (!firstAfterPromotion && Date.now() - promotedAt < 20_000) await sleep(20);
    await sleep(2000);
    publishing = false;
    await Promise.all(publishers);

    // then: a publish failed only as the database being out of reach (503: 50301 or 50302)
    assert.deepEqual(unexpected, []);
    // and: every acknowledged publish is stored once, in one order on both nodes
    const found = await within(stored(nodes[0] as ChildServer, 'fo'), 20_000, 'the poll of node 1');
    assert.equal(new Set(found).size, found.length, 'no message stored twice');
    assert.deepEqual(acknowledged.filter((id) => !found.includes(id)), [], 'every acknowledged message on the new primary');
    assert.deepEqual(await within(stored(nodes[1] as ChildServer, 'fo'), 20_000, 'the poll of node 2'), found);
    assert.ok(beforeKill > 0 && firstAfterPromotion > 0, `published ${beforeKill} before the kill, recovered: ${firstAfterPromotion > 0}`);
    assert.ok(acknowledged.length > beforeKill, 'publishes acknowledged after the promotion');
    // and: the nodes hold no more connections than their pools and listeners (none left
    // behind by the retries of the outage): 2 × (10 pooled + 1 listener) + 10 for node 2's replica pool
    const admin = new pg.Client({ connectionString: standby.url(database) });
    await admin.connect();
    const held = (await admin.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()')).rows[0]?.n;
    await admin.end();
    assert.ok(held !== undefined && held <= 32, `${held} connections to the new primary`);
    // and: every subscriber got every stored message once, in one order (the poll's, once in time order)
    for (const follower of followers) {
      await follower.until(found.length, 30_000);
      await follower.stop();
      assert.deepEqual(follower.inTimeOrder(), found);
    }
    const [onA, onB] = followers as [Follower, Follower];
    if (onA.reconnects === 0 && onB.reconnects === 0) assert.deepEqual(onA.ids, onB.ids);
    t.diagnostic(
      `failover: ${attempted} publishes, ${acknowledged.length} acknowledged (${beforeKill} before the kill), ${failed} answered 503, ${found.length} stored, ` +
        `${found.length - new Set(found).size} duplicates, first acknowledged ${firstAfterPromotion - promotedAt} ms after the promotion ` +
        `(${firstAfterPromotion - killedAt} ms after the kill), subscribers resumed ${followers.map((f) => f.reconnects).join(' and ')} times`,
    );
  });
});
