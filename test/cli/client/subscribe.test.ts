import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ClientProcess, philAccess, runClient } from '../../support/cli-client.js';
import type { Json } from '../../support/clients.js';
import { spawnServer, startTestServer, tempDir, type TestServer } from '../../support/server.js';
import { LogCapture } from '../../support/log.js';
import { TcpProxy } from '../../support/tcp-proxy.js';
import { until } from '../../support/wait.js';

/** `tocsin subscribe` as a child process against a real server: what it prints and what its commands see. */

const token = 'tk_0123456789abcdefghijklmnopqrs';
const dir = tempDir();
let s: TestServer;
before(async () => {
  s = await startTestServer(philAccess(dir, token));
});
after(() => s.server.close());

async function publish(url: string, message: string, headers: Record<string, string> = {}): Promise<Json> {
  const res = await fetch(url, { method: 'POST', body: message, headers });
  assert.equal(res.status, 200);
  return (await res.json()) as Json;
}

const asJson = (line: string): Json => JSON.parse(line) as Json;

describe('tocsin subscribe — printing and polling', () => {
  it('prints each message as the JSON line the server sent, live and replayed (since=)', async () => {
    const first = await publish(`${s.url}/print`, 'before');
    const sub = new ClientProcess(['subscribe', '--since', String(first.id), `${s.url}/print`]);
    const second = await publish(`${s.url}/print`, 'second', { Title: 'T', Tags: 'a,b' });
    const third = await publish(`${s.url}/print`, 'third');
    assert.deepEqual(asJson(await sub.stdout.take(10_000)), second);
    assert.deepEqual(asJson(await sub.stdout.take(10_000)), third);
    sub.stop();
  });

  it('--poll prints the cached messages and exits; --scheduled adds the waiting ones; several topics', async () => {
    const a = await publish(`${s.url}/poll-a`, 'a1');
    const b = await publish(`${s.url}/poll-b`, 'b1');
    const later = await publish(`${s.url}/poll-a`, 'later', { In: '1h' });
    const run = await runClient(['sub', '--poll', `${s.url}/poll-a,poll-b`]);
    assert.deepEqual([run.code, run.stdout.trim().split('\n').map(asJson)], [0, [a, b]]);
    const scheduled = await runClient(['sub', '-p', '--sched', `${s.url}/poll-a`]);
    assert.deepEqual(scheduled.stdout.trim().split('\n').map(asJson), [a, later]);
    const since = await runClient(['sub', '--poll', '--since', String(a.id), `${s.url}/poll-a,poll-b`]);
    assert.deepEqual(since.stdout.trim().split('\n').map(asJson), [b]);
  });

  it('runs COMMAND per message with ntfy\'s variables in its environment', async () => {
    const first = await publish(`${s.url}/cmd`, 'start');
    const sub = new ClientProcess(['sub', '-s', String(first.id), `${s.url}/cmd`, 'env > "$OUT/$NTFY_ID.env"; echo "$id"'], { OUT: dir });
    const sent = await publish(`${s.url}/cmd`, 'Disk full on "srv1"', { Title: 'Alert', Priority: '5', Tags: 'warning,disk', Click: 'https://status.example.com' });
    assert.equal(await sub.stdout.take(10_000), sent.id);
    const env = Object.fromEntries(readFileSync(join(dir, `${String(sent.id)}.env`), 'utf8').trim().split('\n').map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]));
    const expected = { id: sent.id, topic: 'cmd', time: String(sent.time), message: 'Disk full on "srv1"', title: 'Alert', priority: '5', tags: 'warning,disk', click: 'https://status.example.com' };
    for (const [name, value] of Object.entries(expected)) {
      assert.equal(env[name], value, name);
      assert.equal(env[`NTFY_${name.toUpperCase()}`], value, `NTFY_${name.toUpperCase()}`);
    }
    assert.deepEqual([env.m, env.t, env.p, env.prio, env.tag, env.ta], ['Disk full on "srv1"', 'Alert', '5', '5', 'warning,disk', 'warning,disk']);
    assert.deepEqual(asJson(env.raw as string), sent);
    assert.equal(env.OUT, dir, 'the client\'s own environment is passed on');
    sub.stop();
  });

  it('a failing command is logged and the next message still runs', async () => {
    const first = await publish(`${s.url}/failing`, 'start');
    const sub = new ClientProcess(['sub', '-s', String(first.id), `${s.url}/failing`, 'echo "$m"; exit 3']);
    const sent = await publish(`${s.url}/failing`, 'one');
    await publish(`${s.url}/failing`, 'two');
    assert.deepEqual([await sub.stdout.take(10_000), await sub.stdout.take(10_000)], ['one', 'two']);
    assert.match(await sub.stderr.take(5000), new RegExp(`^\\d{4}/\\d\\d/\\d\\d \\d\\d:\\d\\d:\\d\\d WARN 127\\.0\\.0\\.1:\\d+/failing/${String(sent.id)} Command failed: exit status 3$`));
    sub.stop();
  });
});

describe('tocsin subscribe — client.yml and credentials', () => {
  it('--from-config follows each subscription with its command, credentials and if: filter', async () => {
    const config = join(dir, 'client.yml');
    writeFileSync(
      config,
      `default-host: ${s.url}
default-command: 'echo "default:$topic:$m"'
subscribe:
  - topic: cfg-a
    command: 'echo "A:$m:$p"'
  - topic: secret-cfg
    user: phil
    password: secret
    command: 'echo "S:$m"'
  - topic: cfg-high
    if:
      priority: high,urgent
`,
    );
    const sub = new ClientProcess(['sub', '--config', config, '--from-config', '--since', 'all']);
    await publish(`${s.url}/cfg-a`, 'alpha', { Priority: '2' });
    const lines = new Set<string>();
    const want = async (line: string): Promise<void> => {
      while (!lines.has(line)) lines.add(await sub.stdout.take(10_000));
    };
    await want('A:alpha:2');
    await publish(`${s.url}/secret-cfg`, 'psst', { Authorization: `Bearer ${token}` });
    await want('S:psst');
    await publish(`${s.url}/cfg-high`, 'quiet', { Priority: 'low' });
    await publish(`${s.url}/cfg-high`, 'loud', { Priority: 'urgent' });
    await want('default:cfg-high:loud');
    assert.deepEqual([...lines].sort(), ['A:alpha:2', 'S:psst', 'default:cfg-high:loud'], 'the low-priority message was filtered out');
    sub.stop();
  });

  it('-u user:password and -k token; without them a protected topic is refused and retried', async () => {
    const sent = await publish(`${s.url}/secret-sub`, 'hidden', { Authorization: `Bearer ${token}` });
    const basic = await runClient(['sub', '--poll', '-u', 'phil:secret', `${s.url}/secret-sub`]);
    assert.deepEqual(basic.stdout.trim().split('\n').map(asJson), [sent]);
    const bearer = await runClient(['sub', '--poll', '-k', token, `${s.url}/secret-sub`]);
    assert.deepEqual(bearer.stdout.trim().split('\n').map(asJson), [sent]);
    const prompted = await runClient(['sub', '--poll', '-u', 'phil', `${s.url}/secret-sub`], { input: 'secret\n' });
    assert.deepEqual([prompted.stderr, prompted.stdout.trim()], [`Enter Password: \r${' '.repeat(20)}\r`, JSON.stringify(sent)]);
    const denied = await runClient(['sub', '--poll', `${s.url}/secret-sub`]);
    assert.deepEqual([denied.code, asJson(denied.stderr).code], [1, 40301]);
    const live = new ClientProcess(['sub', `${s.url}/secret-sub`]);
    assert.match(await live.stderr.take(10_000), /WARN 127\.0\.0\.1:\d+\/secret-sub Connection failed: \{"code":40301,"http":403,"error":"forbidden"/);
    live.stop();
  });

  it('refuses bad input with ntfy\'s messages and exit code 1', async () => {
    const cases: [string[], string][] = [
      [['sub'], "must specify topic, type 'tocsin subscribe --help' for help"],
      [['sub', '--from-config'], "must specify topic, type 'tocsin subscribe --help' for help"],
      [['sub', '-u', 'a:b', '-k', token, 't'], 'cannot set both --user and --token'],
      [['sub', 'no good'], 'invalid topic name: no good'],
    ];
    for (const [args, message] of cases) assert.deepEqual(await runClient(args), { code: 1, stdout: '', stderr: `${message}\n` }, args.join(' '));
  });
});

describe('tocsin subscribe — reconnecting', () => {
  it('a connection lost before any message resumes from the time it opened: nothing published meanwhile is missed', async () => {
    const connections = s.server.context.connections;
    const earlier = new Set(connections);
    const sub = new ClientProcess(['sub', `${s.url}/gap`]);
    await until(() => connections.size > earlier.size, 'a new connection to the server');
    // The server ends the new connection, as at its shutdown: the open event has gone out before.
    [...connections].find((connection) => !earlier.has(connection))?.end();
    assert.match(await sub.stderr.take(10_000), /WARN 127\.0\.0\.1:\d+\/gap Connection closed by the server$/);
    const m1 = await publish(`${s.url}/gap`, 'while away'); // the client waits 1 s before it reconnects
    assert.equal(asJson(await sub.stdout.take(10_000)).id, m1.id);
    const m2 = await publish(`${s.url}/gap`, 'live');
    assert.equal(asJson(await sub.stdout.take(10_000)).id, m2.id);
    sub.stop();
  });

  it('a server restart with the same cache file loses and repeats no message', async () => {
    // The client talks to a fixed address, a proxy in front of the server. The server
    // cannot come back on its own port at once: uWS listens without SO_REUSEADDR, so the
    // connections it closed on shutdown (TIME_WAIT, 60 s) block the port.
    const cache = join(tempDir(), 'cache.db');
    const first = await spawnServer(['--cache-file', cache]);
    const proxy = await TcpProxy.start({ host: '127.0.0.1', port: Number(new URL(first.url).port) });
    after(() => proxy.stop());
    const address = `http://127.0.0.1:${proxy.port}`;
    const m1 = await publish(`${first.url}/restart`, 'm1');
    const sub = new ClientProcess(['sub', '--since', 'all', `${address}/restart`]);
    assert.equal(asJson(await sub.stdout.take(10_000)).id, m1.id);

    first.child.kill('SIGTERM');
    await first.exited;
    assert.match(await sub.stderr.take(10_000), new RegExp(`WARN 127\\.0\\.0\\.1:${proxy.port}/restart Connection (closed by the server|failed: .*)$`));
    const second = await spawnServer(['--cache-file', cache]);
    proxy.target = { host: '127.0.0.1', port: Number(new URL(second.url).port) };
    // Published before the client is back (it waits 1 s, then 2 s, ... between attempts).
    const m2 = await publish(`${second.url}/restart`, 'm2');
    const m3 = await publish(`${second.url}/restart`, 'm3');
    assert.deepEqual([asJson(await sub.stdout.take(20_000)).id, asJson(await sub.stdout.take(10_000)).id], [m2.id, m3.id]);
    const m4 = await publish(`${second.url}/restart`, 'm4');
    assert.equal(asJson(await sub.stdout.take(10_000)).id, m4.id, 'live again, and m1 was not printed twice');
    sub.stop();
  });
});

describe('tocsin subscribe — replay gaps', () => {
  it('warns of a replay_gap on stderr, streaming and with --poll, and prints the messages kept', async () => {
    const log = new LogCapture();
    const t = await startTestServer({ 'manager-interval': '1s', 'topic-retention': [{ topic: 'capped', 'max-messages': 1 }] }, log.logger);
    after(() => t.server.close());
    const from = log.records.length;
    const first = await publish(`${t.url}/capped`, 'first');
    const kept = await publish(`${t.url}/capped`, 'kept');
    await log.after(from, (r) => r.msg === 'shared housekeeping' && (r.trimmed as number) > 0, 10_000);
    const warning = new RegExp(`^\\d{4}/\\d\\d/\\d\\d \\d\\d:\\d\\d:\\d\\d WARN .*/capped Some notifications could not be recovered: the server no longer holds messages of capped since ${String(first.id)}$`);
    const polled = await runClient(['sub', '--poll', '--since', String(first.id), `${t.url}/capped`]);
    assert.deepEqual([polled.code, polled.stdout.trim().split('\n').map(asJson)], [0, [kept]]);
    assert.match(polled.stderr.trim(), warning);
    const sub = new ClientProcess(['sub', '--since', String(first.id), `${t.url}/capped`]);
    assert.match(await sub.stderr.take(10_000), warning);
    assert.deepEqual(asJson(await sub.stdout.take(10_000)), kept);
    sub.stop();
  });
});
