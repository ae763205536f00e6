import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import bcrypt from 'bcryptjs';
import WebSocket from 'ws';
import { LineStream, WsStream, type Json } from '../support/clients.js';
import { spawnServer, startTestServer, tempDir, type TestServer } from '../support/server.js';

/** Access control with an auth-file, provisioned from the settings as server.yml would. */

const token = 'tk_0123456789abcdefghijklmnopqrs';
let s: TestServer;
before(async () => {
  const hash = bcrypt.hashSync('secret', 4);
  s = await startTestServer({
    'auth-file': join(tempDir(), 'auth.db'),
    'auth-default-access': 'deny-all',
    'auth-users': [`admin:${hash}:admin`, `phil:${hash}:user`, `writer:${hash}:user`],
    'auth-access': ['phil:alerts*:rw', 'phil:alerts-audit:ro', 'writer:inbox:wo', 'writer:Alerts:rw', '*:public:read-only'],
    'auth-tokens': [`phil:${token}:laptop`],
  });
});
after(() => s.server.close());

const basic = (user: string, password = 'secret'): string => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const auth = (value: string): string => Buffer.from(value).toString('base64url');

async function status(path: string, authorization?: string, method = 'POST'): Promise<[number, number | undefined]> {
  const res = await fetch(`${s.url}${path}`, {
    method,
    body: method === 'GET' ? undefined : 'hello',
    headers: authorization ? { Authorization: authorization } : {},
  });
  const text = await res.text();
  return [res.status, res.status === 200 ? undefined : ((JSON.parse(text) as Json).code as number)];
}

describe('access control — HTTP', () => {
  it('anonymous visitors get the default access except where everyone has an entry', async () => {
    assert.deepEqual(await status('/alerts'), [403, 40301]);
    assert.deepEqual(await status('/public/json?poll=1', undefined, 'GET'), [200, undefined]);
    assert.deepEqual(await status('/public'), [403, 40301]);
  });

  it('Basic, Bearer and Basic-with-token credentials publish where allowed; wrong ones are 401', async () => {
    assert.deepEqual(await status('/alerts-db', basic('phil')), [200, undefined]);
    assert.deepEqual(await status('/alerts-db', `Bearer ${token}`), [200, undefined]);
    assert.deepEqual(await status('/alerts-db', `Basic ${Buffer.from(`:${token}`).toString('base64')}`), [200, undefined]);
    assert.deepEqual(await status('/alerts-db', basic('phil', 'wrong')), [401, 40101]);
    assert.deepEqual(await status('/alerts-db', basic('nobody')), [401, 40101]);
    assert.deepEqual(await status('/alerts-db', 'Bearer tk_doesnotexistdoesnotexist123'), [401, 40101]);
    assert.deepEqual(await status('/alerts-audit', basic('phil')), [403, 40301], 'the more specific read-only entry wins');
    assert.deepEqual(await status('/elsewhere', basic('phil')), [403, 40301]);
    assert.deepEqual(await status('/elsewhere', basic('admin')), [200, undefined]);
  });

  it('entries match topics case-sensitively (ntfy 2.24): a grant on Alerts does not open alerts', async () => {
    assert.deepEqual(await status('/Alerts', basic('writer')), [200, undefined]);
    assert.deepEqual(await status('/alerts', basic('writer')), [403, 40301]);
    assert.deepEqual(await status('/ALERTS', basic('writer')), [403, 40301]);
    assert.deepEqual(await status('/Alerts-db', basic('phil')), [403, 40301], 'phil\'s alerts* does not cover Alerts-db');
  });

  it('a write-only user publishes but cannot read; a multi-topic subscription needs every topic', async () => {
    assert.deepEqual(await status('/inbox', basic('writer')), [200, undefined]);
    assert.deepEqual(await status('/inbox/json?poll=1', basic('writer'), 'GET'), [403, 40301]);
    assert.deepEqual(await status('/alerts-db,public/json?poll=1', basic('phil'), 'GET'), [200, undefined]);
    assert.deepEqual(await status('/alerts-db,inbox/json?poll=1', basic('phil'), 'GET'), [403, 40301]);
  });

  it('answers 401 and 403 with ntfy\'s error bodies', async () => {
    const unauthorized = await fetch(`${s.url}/alerts-db`, { method: 'POST', body: 'x', headers: { Authorization: basic('phil', 'wrong') } });
    assert.deepEqual([unauthorized.status, await unauthorized.json()], [401, { code: 40101, http: 401, error: 'unauthorized', link: 'https://ntfy.sh/docs/publish/#authentication' }]);
    const forbidden = await fetch(`${s.url}/alerts-db`, { method: 'POST', body: 'x' });
    assert.deepEqual([forbidden.status, await forbidden.json()], [403, { code: 40301, http: 403, error: 'forbidden', link: 'https://ntfy.sh/docs/publish/#authentication' }]);
  });

  it('GET /{topics}/auth answers whether the credentials may read', async () => {
    const res = await fetch(`${s.url}/alerts-db/auth`, { headers: { Authorization: `Bearer ${token}` } });
    assert.deepEqual([res.status, await res.json()], [200, { success: true }]);
    assert.deepEqual(await status('/alerts-db/auth', undefined, 'GET'), [403, 40301]);
    assert.deepEqual(await status('/alerts-db/auth', basic('phil', 'nope'), 'GET'), [401, 40101]);
  });

  it('sequence events need write access', async () => {
    assert.deepEqual(await status('/alerts-db/job-1', undefined, 'DELETE'), [403, 40301]);
    assert.deepEqual(await status('/alerts-db/job-1', basic('phil'), 'DELETE'), [200, undefined]);
    assert.deepEqual(await status('/alerts-audit/job-1/clear', basic('phil'), 'PUT'), [403, 40301]);
  });

  it('the auth query parameter works for streams and WebSockets, where browsers cannot set headers', async () => {
    const stream = new LineStream(`${s.url}/alerts-live/sse?auth=${auth(basic('phil'))}`);
    assert.equal((await stream.response).status, 200);
    stream.close();
    const ws = new WsStream(`${s.url}/alerts-live/ws?auth=${auth(`Bearer ${token}`)}`);
    assert.equal((await ws.next()).event, 'open');
    await fetch(`${s.url}/alerts-live`, { method: 'POST', body: 'to the dashboard', headers: { Authorization: basic('phil') } });
    assert.equal((await ws.next()).message, 'to the dashboard');
    ws.close();
    const denied = await new Promise<[number, string]>((resolve, reject) => {
      const socket = new WebSocket(`${s.url.replace('http', 'ws')}/alerts-live/ws`);
      socket.on('open', () => reject(new Error('upgraded without credentials')));
      socket.on('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += String(chunk)));
        res.on('end', () => resolve([res.statusCode ?? 0, body]));
      });
    });
    assert.equal(denied[0], 403);
    assert.equal((JSON.parse(denied[1]) as Json).code, 40301);
  });
});

describe('access control — every credential form on every stream format', () => {
  const forms: [string, (path: string) => [string, Record<string, string>]][] = [
    ['Basic header', (path) => [path, { Authorization: basic('phil') }]],
    ['Bearer header', (path) => [path, { Authorization: `Bearer ${token}` }]],
    ['token as Basic password', (path) => [path, { Authorization: `Basic ${Buffer.from(`:${token}`).toString('base64')}` }]],
    ['auth query, Basic', (path) => [`${path}${path.includes('?') ? '&' : '?'}auth=${auth(basic('phil'))}`, {}]],
    ['auth query, Bearer', (path) => [`${path}${path.includes('?') ? '&' : '?'}auth=${auth(`Bearer ${token}`)}`, {}]],
  ];

  for (const format of ['json', 'sse', 'raw']) {
    it(`${format}: each form reads a permitted topic; no credentials are forbidden`, async () => {
      for (const [name, form] of forms) {
        const [path, headers] = form(`/alerts-db/${format}?poll=1`);
        assert.equal((await fetch(`${s.url}${path}`, { headers })).status, 200, name);
      }
      assert.deepEqual(await status(`/alerts-db/${format}?poll=1`, undefined, 'GET'), [403, 40301]);
      assert.deepEqual(await status(`/alerts-db/${format}?poll=1`, basic('phil', 'bad'), 'GET'), [401, 40101]);
    });
  }

  it('ws: each form opens a permitted topic', async () => {
    for (const [name, form] of forms) {
      const [path, headers] = form('/alerts-db/ws');
      const opened = await new Promise<number>((resolve) => {
        const socket = new WebSocket(`${s.url.replace('http', 'ws')}${path}`, { headers });
        socket.on('message', (data: Buffer) => {
          assert.equal((JSON.parse(String(data)) as Json).event, 'open', name);
          socket.close();
          resolve(101);
        });
        socket.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      });
      assert.equal(opened, 101, name);
    }
  });

  it('publishing works with each form', async () => {
    for (const [name, form] of forms) {
      const [path, headers] = form('/alerts-db');
      assert.equal((await fetch(`${s.url}${path}`, { method: 'POST', body: name, headers })).status, 200, name);
    }
  });
});

describe('access control — startup', () => {
  it('provisions users, grants and tokens from server.yml', async () => {
    const dir = tempDir();
    const yml = join(dir, 'server.yml');
    writeFileSync(yml, [
      `auth-file: ${join(dir, 'auth.db')}`,
      'auth-default-access: deny-all',
      `auth-users: ["ops:${bcrypt.hashSync('pw', 4)}:user"]`,
      'auth-access: ["ops:ops-*:rw", "*:announcements:ro"]',
      `auth-tokens: ["ops:${token}:deploy"]`,
    ].join('\n'));
    const child = await spawnServer(['--config', yml]);
    const post = async (path: string, authorization?: string): Promise<number> =>
      (await fetch(`${child.url}${path}`, { method: 'POST', body: 'x', headers: authorization ? { Authorization: authorization } : {} })).status;
    assert.equal(await post('/ops-db', basic('ops', 'pw')), 200);
    assert.equal(await post('/ops-db', `Bearer ${token}`), 200);
    assert.equal(await post('/announcements', `Bearer ${token}`), 403);
    assert.equal(await post('/ops-db'), 403);
    assert.equal((await fetch(`${child.url}/announcements/json?poll=1`)).status, 200, 'everyone may read announcements');
  });

  it('a malformed provisioning line stops the server with a message naming it', async () => {
    await assert.rejects(
      spawnServer(['--auth-file', join(tempDir(), 'auth.db'), '--auth-users', 'phil:notahash:admin']),
      /invalid auth-users entry for phil: the password must be a bcrypt hash/,
    );
  });
});
