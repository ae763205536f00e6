import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import bcrypt from 'bcryptjs';
import WebSocket from 'ws';
import type { Json } from '../support/clients.js';
import { LogCapture } from '../support/log.js';
import { startTestServer, tempDir, type TestServer } from '../support/server.js';

/** Refused requests are logged at info, naming visitor, user, topic, code and path (what a user asks the admin for). */

const hash = bcrypt.hashSync('pw', 4);
const basic = (user: string): string => `Basic ${Buffer.from(`${user}:pw`).toString('base64')}`;

const dir = tempDir();
const capture = new LogCapture('info');
let s: TestServer;
before(async () => {
  s = await startTestServer(
    {
      'auth-file': join(dir, 'auth.db'),
      'auth-default-access': 'deny-all',
      'auth-users': [`ben:${hash}:user`],
      'auth-access': ['ben:ops:ro', '*:open:rw', '*:up*:rw'],
      'visitor-subscriber-rate-limiting': true,
    },
    capture.logger,
  );
});
after(() => s.server.close());

/** The refusal logged for `path`, waiting for it. */
const refusal = (path: string): Promise<Json> => capture.next((r) => r.http_path === path);

describe('rejection log', () => {
  it('a user refused a topic: user, topic, code and path, at info', async () => {
    const res = await fetch(`${s.url}/ops`, { method: 'POST', body: 'x', headers: { Authorization: basic('ben') } });
    assert.equal(res.status, 403);
    const { time, ...line } = await refusal('/ops');
    assert.equal(typeof time, 'number');
    assert.deepEqual(line, {
      level: 30, visitor_ip: '127.0.0.1', user_name: 'ben', topic: 'ops', error_code: 40301, http_status: 403,
      http_method: 'POST', http_path: '/ops', msg: 'HTTP 403 (ntfy error 40301): forbidden',
    });
  });

  it('wrong credentials, a bad parameter, an unknown path, a JSON publish and a refused WebSocket are each logged', async () => {
    await fetch(`${s.url}/open/json?poll=1&auth=${Buffer.from('Bearer tk_wrongwrongwrongwrongwrongwro').toString('base64url')}`);
    assert.deepEqual(pick(await refusal('/open/json')), [40101, 'open', undefined], 'the query (with its credentials) is not logged');
    await fetch(`${s.url}/open/sse?since=yesterday-ish`);
    assert.deepEqual(pick(await refusal('/open/sse')), [40008, 'open', undefined]);
    await fetch(`${s.url}/v1/nothing-here`);
    assert.deepEqual(pick(await refusal('/v1/nothing-here')), [40401, undefined, undefined]);
    await fetch(`${s.url}/`, { method: 'POST', body: JSON.stringify({ topic: 'ops', message: 'x' }), headers: { Authorization: basic('ben') } });
    assert.deepEqual(pick(await refusal('/')), [40301, 'ops', 'ben'], 'the topic from the body');
    await new Promise((resolve) => new WebSocket(`${s.url.replace('http', 'ws')}/ops/ws`).on('unexpected-response', resolve));
    assert.deepEqual(pick(await refusal('/ops/ws')), [40301, 'ops', undefined]);
  });

  it('a 507 (a UnifiedPush publish with no subscriber to bill) is logged too', async () => {
    const res = await fetch(`${s.url}/upAbCdEf123456?up=1`, { method: 'POST', body: 'x' });
    assert.equal(res.status, 507);
    assert.deepEqual(pick(await refusal('/upAbCdEf123456')), [50701, 'upAbCdEf123456', undefined]);
    assert.equal(capture.find((r) => r.http_path === '/upAbCdEf123456')[0]?.level, 30, 'info: the client\'s doing, not a fault');
  });

  it('a flood is cut to 20 lines a second, the rest counted in a summary', async () => {
    const from = capture.records.length;
    await Promise.all(Array.from({ length: 60 }, () => fetch(`${s.url}/flood`, { method: 'POST', body: 'x' })));
    const since = (): Json[] => capture.records.slice(from);
    const lines = (): number => since().filter((r) => r.http_path === '/flood').length;
    const counted = (): number => since().reduce((sum, r) => sum + ((r.suppressed as number | undefined) ?? 0), 0);
    await capture.until(() => lines() + counted() === 60); // the summary comes when the second is over
    assert.ok(lines() <= 40 && counted() >= 20, `${lines()} lines, ${counted()} counted (60 within at most two seconds)`);
  });
});

function pick(r: Json): [unknown, unknown, unknown] {
  return [r.error_code, r.topic, r.user_name];
}
