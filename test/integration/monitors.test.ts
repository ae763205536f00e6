import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import bcrypt from 'bcryptjs';
import fc from 'fast-check';
import { apiCall, statusAndCode } from '../support/account-api.js';
import { LineStream, type Json } from '../support/clients.js';
import { LogCapture } from '../support/log.js';
import { startTestServer, tempDir, type TestServer } from '../support/server.js';

/**
 * Heartbeat monitors (/v1/monitors, /v1/heartbeat/<key>): a real server with an auth-file
 * and a monitor-file; the check that turns monitors DOWN is run by the test at a chosen
 * time (monitor-check-interval is an hour), except in the case that waits for the timer.
 */

const hash = bcrypt.hashSync('secret', 4);
const basic = (user: string): string => `Basic ${Buffer.from(`${user}:secret`).toString('base64')}`;
const users = [`phil:${hash}:user`, `ben:${hash}:user`, `admin:${hash}:admin`];
// Everyone else is denied: phil may write alerts and ops, ben only his own topic.
const access = ['phil:alerts:rw', 'phil:ops:rw', 'ben:ben-alerts:rw'];

let s: TestServer;
const log = new LogCapture();
before(async () => {
  s = await startTestServer(
    {
      'auth-file': join(tempDir(), 'auth.db'), 'auth-users': users, 'auth-access': access, 'auth-default-access': 'deny-all',
      'monitor-file': join(tempDir(), 'monitor.db'), 'monitor-check-interval': '1h', 'monitor-limit': 3,
    },
    log.logger,
  );
});
after(() => s.server.close());

const call = (method: string, path: string, user?: string, body?: unknown): Promise<[number, Json]> => apiCall(s.url, method, path, user && basic(user), body);
const code = (p: Promise<[number, Json]>): Promise<[number, unknown]> => statusAndCode(p);
const monitors = () => s.server.context.monitors!;
const now = (): number => Math.floor(Date.now() / 1000);

/** The messages of a topic phil may read, as a poll answers them. */
async function polled(topic: string): Promise<Json[]> {
  const res = await fetch(`${s.url}/${topic}/json?poll=1`, { headers: { Authorization: basic('phil') } });
  return (await res.text()).split('\n').filter(Boolean).map((line) => JSON.parse(line) as Json);
}

describe('monitors — the API', () => {
  it('POST /v1/monitors makes a pending monitor, ntfy\'s fields; the priority is 4 unless given; GET lists the user\'s own by key', async () => {
    const [status, made] = await call('POST', '/v1/monitors', 'phil', { key: 'scanner', period: 300, grace: 60, alert_topic: 'alerts', alert_priority: 5 });
    assert.equal(status, 200);
    const createdAt = made.created_at as number;
    assert.ok(Math.abs(createdAt - now()) <= 2);
    assert.deepEqual(made, { key: 'scanner', period: 300, grace: 60, alert_topic: 'alerts', alert_priority: 5, state: 'pending', last_seen_at: 0, created_at: createdAt });
    const [, backup] = await call('POST', '/v1/monitors', 'phil', { key: 'backup', period: 3600, grace: 600, alert_topic: 'ops' });
    assert.equal(backup.alert_priority, 4);
    assert.deepEqual(await call('POST', '/v1/monitors', 'ben', { key: 'scanner', period: 30, grace: 10, alert_topic: 'ben-alerts' }).then(([st]) => st), 200, 'keys are per user');
    const [, list] = await call('GET', '/v1/monitors', 'phil');
    assert.deepEqual((list.monitors as Json[]).map((m) => m.key), ['backup', 'scanner']);
    assert.deepEqual(await call('GET', '/v1/monitors/scanner', 'phil'), [200, made]);
    assert.deepEqual((await call('GET', '/v1/monitors', 'admin'))[1], { monitors: [] }, 'an admin sees their own too');
  });

  it('refuses as ntfy: 40101 anonymous, 40909 a key held, 40402 another\'s or no monitor, 40301 a topic the user may not write', async () => {
    const body = { key: 'scanner', period: 300, grace: 60, alert_topic: 'alerts' };
    assert.deepEqual(await code(call('POST', '/v1/monitors', undefined, body)), [401, 40101]);
    assert.deepEqual(await code(call('GET', '/v1/monitors')), [401, 40101]);
    assert.deepEqual(await code(call('POST', '/v1/heartbeat/scanner')), [401, 40101]);
    assert.deepEqual(await code(call('POST', '/v1/monitors', 'phil', body)), [409, 40909]);
    assert.deepEqual(await code(call('GET', '/v1/monitors/ghost', 'phil')), [404, 40402]);
    assert.deepEqual(await code(call('GET', '/v1/monitors/backup', 'ben')), [404, 40402], 'phil\'s monitor is not found for ben');
    assert.deepEqual(await code(call('POST', '/v1/heartbeat/backup', 'ben')), [404, 40402]);
    assert.deepEqual(await code(call('DELETE', '/v1/monitors/backup', 'ben')), [404, 40402]);
    assert.deepEqual(await code(call('POST', '/v1/monitors', 'ben', { ...body, key: 'spy', alert_topic: 'alerts' })), [403, 40301]);
    assert.deepEqual(await code(call('PATCH', '/v1/monitors/scanner', 'ben', { alert_topic: 'alerts' })), [403, 40301]);
  });

  it('checks the body in ntfy\'s order: 40060 not a JSON object or a wrong type, then key 40061, period 40062, grace 40063, topic 40064, priority 40065', async () => {
    const ok = { key: 'k', period: 300, grace: 60, alert_topic: 'alerts' };
    const cases: [unknown, number][] = [
      ['not json', 40060],
      ['[1]', 40060],
      [{ ...ok, period: '300' }, 40060],
      [{ ...ok, period: 300.5 }, 40060],
      [{ ...ok, key: 5 }, 40060],
      [{ ...ok, key: 'bad/key' }, 40061],
      [{ ...ok, key: '' }, 40061],
      [{ ...ok, key: 'k'.repeat(65) }, 40061],
      [{ ...ok, period: 29 }, 40062],
      [{ ...ok, period: 86_401 }, 40062],
      [{ key: 'k', grace: 60, alert_topic: 'alerts' }, 40062],
      [{ ...ok, grace: 9 }, 40063],
      [{ ...ok, alert_topic: 'bad/topic' }, 40064],
      [{ ...ok, alert_topic: 'v1' }, 40064],
      [{ ...ok, alert_topic: undefined }, 40064],
      [{ ...ok, alert_priority: 0 }, 40065],
      [{ ...ok, alert_priority: 9 }, 40065],
      [{ ...ok, key: 'bad key', period: 1 }, 40061],
    ];
    for (const [body, expected] of cases) assert.deepEqual(await code(call('POST', '/v1/monitors', 'phil', body)), [400, expected], JSON.stringify(body));
    assert.deepEqual(await code(call('PATCH', '/v1/monitors/scanner', 'phil', { grace: 0 })), [400, 40063]);
    assert.deepEqual(await code(call('GET', '/v1/monitors/a.b', 'phil')), [404, 40401], 'not a key: no such path');
  });

  it('any JSON body is answered 200 or one of ntfy\'s 4xx codes for it; the server keeps going (property)', async () => {
    const known = new Set([40060, 40061, 40062, 40063, 40064, 40065, 40301, 40909, 42912]);
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.json(), fc.record({ key: fc.string(), period: fc.anything(), grace: fc.integer(), alert_topic: fc.string(), alert_priority: fc.anything() }, { requiredKeys: [] })), async (body) => {
        const [status, answer] = await call('POST', '/v1/monitors', 'ben', typeof body === 'string' ? body : JSON.stringify(body));
        if (status === 200) await call('DELETE', `/v1/monitors/${answer.key as string}`, 'ben');
        else assert.ok(known.has(answer.code as number), `${status} ${JSON.stringify(answer)}`);
      }),
      { numRuns: 150 },
    );
    assert.equal((await fetch(`${s.url}/v1/health`)).status, 200);
  });

  it('PATCH changes only what the body names; DELETE answers {"ok":true}, then 40402', async () => {
    const [, changed] = await call('PATCH', '/v1/monitors/backup', 'phil', { period: 7200, alert_priority: 2 });
    assert.deepEqual([changed.key, changed.period, changed.grace, changed.alert_topic, changed.alert_priority], ['backup', 7200, 600, 'ops', 2]);
    assert.deepEqual(await call('DELETE', '/v1/monitors/backup', 'phil'), [200, { ok: true }]);
    assert.deepEqual(await code(call('DELETE', '/v1/monitors/backup', 'phil')), [404, 40402]);
    assert.deepEqual(await code(call('PATCH', '/v1/monitors/backup', 'phil', { period: 60 })), [404, 40402]);
  });

  it('monitor-limit bounds a user\'s monitors: past it 42912', async () => {
    for (const key of ['m2', 'm3']) assert.equal((await call('POST', '/v1/monitors', 'phil', { key, period: 60, grace: 10, alert_topic: 'ops' }))[0], 200);
    assert.deepEqual(await code(call('POST', '/v1/monitors', 'phil', { key: 'm4', period: 60, grace: 10, alert_topic: 'ops' })), [429, 42912]);
    for (const key of ['m2', 'm3']) await call('DELETE', `/v1/monitors/${key}`, 'phil');
  });
});

describe('monitors — heartbeats and alerts', () => {
  it('a heartbeat makes a pending monitor up; missing period + grace turns it DOWN with ntfy\'s alert; the next heartbeat UP', async () => {
    // Given phil's monitor, pinged once
    const [, first] = await call('POST', '/v1/heartbeat/scanner', 'phil');
    const seen = first.last_seen_at as number;
    assert.deepEqual(first, { key: 'scanner', state: 'up', prev_state: 'pending', last_seen_at: seen });
    assert.deepEqual((await call('GET', '/v1/heartbeat/scanner', 'phil'))[1].prev_state, 'up', 'GET pings too (cron and curl)');
    // When checked within period + grace (300 + 60), then nothing happens
    assert.equal(await monitors().check(seen + 360), 0);
    // When checked past it, then it is DOWN and the alert is on the topic
    assert.equal(await monitors().check(seen + 361), 1);
    assert.equal((await call('GET', '/v1/monitors/scanner', 'phil'))[1].state, 'down');
    const [down] = (await polled('alerts')).filter((m) => (m.title as string).startsWith('Monitor scanner'));
    assert.deepEqual(
      { title: down?.title, message: down?.message, tags: down?.tags, priority: down?.priority, event: down?.event },
      { title: 'Monitor scanner is DOWN', message: 'No heartbeat for at least 360s (period=300s, grace=60s).', tags: ['warning'], priority: 5, event: 'message' },
    );
    assert.equal(await monitors().check(seen + 10_000), 0, 'alerted once');
    // When it pings again, then it is UP, and the recovery alert reaches a subscriber
    const stream = new LineStream(`${s.url}/alerts/json`, { headers: { Authorization: basic('phil') } });
    after(() => stream.close());
    assert.equal((await stream.nextJson()).event, 'open');
    const [, again] = await call('PUT', '/v1/heartbeat/scanner', 'phil');
    assert.deepEqual([again.state, again.prev_state], ['up', 'down']);
    const up = await stream.nextJson();
    assert.deepEqual([up.title, up.message, up.tags, up.priority], ['Monitor scanner is UP', 'Heartbeat received; monitor scanner recovered after being down.', ['white_check_mark'], 5]);
  });

  it('a pending monitor never alerts', async () => {
    await call('POST', '/v1/monitors', 'phil', { key: 'quiet', period: 30, grace: 10, alert_topic: 'ops' });
    await monitors().check(now() + 1_000_000);
    assert.equal((await call('GET', '/v1/monitors/quiet', 'phil'))[1].state, 'pending');
    assert.deepEqual((await polled('ops')).map((m) => m.title), [], 'no alert on its topic');
    await call('DELETE', '/v1/monitors/quiet', 'phil');
  });

  it('an owner who may no longer write the topic, or is gone, gets no alert (logged); deleting the account removes its monitors', async () => {
    const store = s.server.context.access!.store;
    for (const name of ['carl', 'dave']) {
      await store.addUser(name, hash, 'user');
      await store.allowAccess(name, `${name}-alerts`, { read: true, write: true });
      assert.equal((await call('POST', '/v1/monitors', name, { key: 'job', period: 30, grace: 10, alert_topic: `${name}-alerts` }))[0], 200);
      await call('POST', '/v1/heartbeat/job', name);
    }
    await call('POST', '/v1/heartbeat/scanner', 'ben');
    // When ben's grant is taken away, and dave removed (as the CLI would), and their monitors go DOWN
    await store.resetAccess('ben', 'ben-alerts');
    await store.removeUser('dave');
    const from = log.records.length;
    await monitors().check(now() + 41);
    // Then their alerts are dropped and logged
    const dropped = await log.after(from, (r) => r.msg === 'monitor alert dropped' && r.user === 'ben');
    assert.deepEqual([dropped.monitor, dropped.topic, (dropped.err as Json).code], ['scanner', 'ben-alerts', 40301]);
    const gone = await log.after(from, (r) => r.msg === 'monitor alert dropped: its owner no longer exists');
    assert.deepEqual([gone.user, gone.monitor], ['dave', 'job']);
    // When carl deletes his account, then his monitors go with it
    assert.equal((await call('DELETE', '/v1/account', 'carl', { password: 'secret' }))[0], 200);
    assert.deepEqual(await monitors().store.list('carl'), []);
  });
});

describe('monitors — the check on its timer', () => {
  it('every monitor-check-interval, a stale monitor goes DOWN and its alert is published', async () => {
    const t = await startTestServer({ 'auth-file': join(tempDir(), 'auth.db'), 'auth-users': users, 'monitor-file': join(tempDir(), 'monitor.db'), 'monitor-check-interval': '1s' });
    after(() => t.server.close());
    const stream = new LineStream(`${t.url}/late/json`);
    after(() => stream.close());
    assert.equal((await stream.nextJson()).event, 'open');
    assert.equal((await apiCall(t.url, 'POST', '/v1/monitors', basic('phil'), { key: 'job', period: 30, grace: 10, alert_topic: 'late' }))[0], 200);
    // A heartbeat as if 100 s ago (the store takes the time; the API's is now)
    await t.server.context.monitors!.store.heartbeat('phil', 'job', now() - 100);
    const alert = await stream.nextJson(5000);
    assert.deepEqual([alert.title, alert.tags, alert.priority], ['Monitor job is DOWN', ['warning'], 4]);
  });
});

describe('monitors — off, and the configuration', () => {
  it('without monitor-file every route is 40066, after no credential check', async () => {
    const off = await startTestServer({ 'auth-file': join(tempDir(), 'auth.db'), 'auth-users': users });
    after(() => off.server.close());
    for (const [method, path] of [['GET', '/v1/monitors'], ['POST', '/v1/monitors'], ['GET', '/v1/monitors/x'], ['DELETE', '/v1/monitors/x'], ['POST', '/v1/heartbeat/x']] as const) {
      assert.deepEqual(await statusAndCode(apiCall(off.url, method, path, basic('phil'), method === 'POST' ? {} : undefined)), [400, 40066], `${method} ${path}`);
    }
  });
});
