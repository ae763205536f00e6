import assert from 'node:assert/strict';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { after, describe, it } from 'node:test';
import webpush from 'web-push';
import type { HostResolver } from '../../src/push/public-address.js';
import type { Json } from '../support/clients.js';
import { LogCapture } from '../support/log.js';
import { startTestServer, tempDir, type TestServer } from '../support/server.js';

/**
 * Issue 33, finding 5: a browser's endpoint is where the server sends a signed POST, so
 * only endpoints at a listed push service's public address are taken. These servers keep
 * the default web-push-allowed-endpoints and web-push-allow-private-endpoints off.
 */

const vapid = webpush.generateVAPIDKeys();
const keys = { auth: 'x8YjBnhvdZTX_p0Zg9B8vQ', p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM' };

async function server(settings: Record<string, unknown> = {}, resolveHost?: HostResolver, log?: LogCapture): Promise<TestServer> {
  const s = await startTestServer({
    'base-url': 'http://tocsin.test',
    'web-push-public-key': vapid.publicKey,
    'web-push-private-key': vapid.privateKey,
    'web-push-file': join(tempDir(), 'webpush.db'),
    'web-push-email-address': 'admin@tocsin.test',
    ...settings,
  }, log?.logger, resolveHost && { resolveHost });
  after(() => s.server.close());
  return s;
}

async function subscribe(s: TestServer, endpoint: string, topics = ['alerts']): Promise<{ status: number; json: Json }> {
  const res = await fetch(`${s.url}/v1/webpush`, { method: 'POST', body: JSON.stringify({ endpoint, ...keys, topics }) });
  return { status: res.status, json: (await res.json()) as Json };
}

const codeOf = ({ status, json }: { status: number; json: Json }): [number, unknown] => [status, json.code];
const answering = (address: string): HostResolver => () => Promise.resolve([{ address, family: 4 }]);

/** A TCP listener on 127.0.0.1 counting the connections it gets. */
async function listener(): Promise<{ port: number; connections: () => number }> {
  let connections = 0;
  const tcp = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
  after(() => tcp.close());
  return { port: (tcp.address() as { port: number }).port, connections: () => connections };
}

describe('web push — endpoints refused (issue 33)', () => {
  it('the issue\'s reproducer is 40039, and a publish to its topic never reaches the host it names', async () => {
    // Given: an internal service on 127.0.0.1, and a server on its defaults.
    const internal = await listener();
    const s = await server();

    // When: a browser subscribes with endpoints that point at it, then a message is published.
    const endpoints = [
      `https://127.0.0.1:${internal.port}\\x.google.com/../../internal/admin?action=restart`,
      `https://x.google.com@127.0.0.1:${internal.port}/internal/admin`,
      `https://127.0.0.1:${internal.port}/x.google.com/`,
      `http://127.0.0.1:${internal.port}/fcm.googleapis.com/`,
    ];
    const answers = await Promise.all(endpoints.map(async (e) => codeOf(await subscribe(s, e))));
    assert.equal((await fetch(`${s.url}/alerts`, { method: 'POST', body: 'restart?' })).status, 200);
    await s.server.context.webPush?.settled();

    // Then: every one was refused with ntfy's code, and nothing connected to the service.
    assert.deepEqual(answers, endpoints.map(() => [400, 40039]));
    assert.deepEqual(await s.server.context.webPush?.store.forTopic('alerts'), []);
    assert.equal(internal.connections(), 0);
    const started = performance.now();
    assert.equal((await fetch(`${s.url}/v1/health`)).status, 200);
    assert.ok(performance.now() - started < 500, 'health answers at once');
  });

  it('a subscription stored before the checks (the reproducer\'s endpoint) gets no push and is removed', async () => {
    const internal = await listener();
    const s = await server();
    const store = s.server.context.webPush?.store;
    const endpoint = `https://127.0.0.1:${internal.port}\\x.google.com/../../internal/admin?action=restart`;
    await store?.upsert({ endpoint, ...keys, topics: ['alerts'], userId: '', subscriberIp: '127.0.0.1' }, Math.floor(Date.now() / 1000));
    assert.equal((await fetch(`${s.url}/alerts`, { method: 'POST', body: 'restart?' })).status, 200);
    await s.server.context.webPush?.settled();
    assert.equal(internal.connections(), 0);
    assert.deepEqual(await store?.forTopic('alerts'), []);
  });

  it('40039 says why: backslash, user, port, http:, IP address, encoded separators', async () => {
    const s = await server({}, answering('142.250.74.42'));
    const cases: [string, string][] = [
      ['https://fcm.googleapis.com\\@evil.example/x', 'a backslash, space or control character'],
      ['https://user@fcm.googleapis.com/fcm/send/x', 'a user name or password'],
      ['https://fcm.googleapis.com:8443/fcm/send/x', 'not at an allowed push service'],
      ['http://fcm.googleapis.com/fcm/send/x', 'not at an allowed push service'],
      ['https://142.250.74.42/fcm/send/x', 'an IP address'],
      ['https://fcm.googleapis.com/fcm%2f..%2f..%2fadmin', 'a percent-encoded separator in its host or path'],
      ['https://fcm.googleapis.com/fcm/%2e%2e/admin', 'a percent-encoded separator in its host or path'],
    ];
    for (const [endpoint, reason] of cases) {
      assert.deepEqual(await subscribe(s, endpoint), {
        status: 400,
        json: { code: 40039, http: 400, error: `invalid request: web push endpoint unknown; ${reason}` },
      }, endpoint);
    }
  });

  it('an endpoint whose host resolves to a private address is 40039: localhost by the system resolver, 10.0.0.1 and 169.254.169.254 by a resolver test double', async () => {
    const local = await server({ 'web-push-allowed-endpoints': ['https://localhost/'] });
    assert.deepEqual(codeOf(await subscribe(local, 'https://localhost/push/x')), [400, 40039]);
    for (const address of ['10.0.0.1', '169.254.169.254', '100.64.0.7']) {
      const s = await server({}, answering(address));
      assert.deepEqual(await subscribe(s, 'https://fcm.googleapis.com/fcm/send/x'), {
        status: 400,
        json: { code: 40039, http: 400, error: `invalid request: web push endpoint unknown; fcm.googleapis.com resolves to ${address}, not a public address` },
      });
    }
  });
});

describe('web push — endpoints accepted', () => {
  it('Chrome\'s, Firefox\'s, Safari\'s and Edge\'s endpoint shapes are accepted (resolver test double answering a public address)', async () => {
    const s = await server({}, answering('142.250.74.42'));
    for (const endpoint of [
      'https://fcm.googleapis.com/fcm/send/dXk2Z3RwbGFjZWhvbGRlcg:APA91bH8x-Y_z0kLmN4pQ7rS1tU2vW3xY4zA5bC6dE7fG8hI9jK0',
      'https://updates.push.services.mozilla.com/wpush/v2/gAAAAABmRk2d-3lTg8_aPl9tqK6u1uJ0K0Z8Q6kz4Ndu0k1Rf-ZQ2h8Y4=',
      'https://web.push.apple.com/QGx5Nh9xcMZw4ptFvGq_8eTqzRk4QZ7vXK2RrUJJ8Gv7n8b1r0b9Y2Kq3YwH3QwC2tXK7',
      'https://wns2-par02p.notify.windows.com/w/?token=BQYAAADqC9f2%2bK8vPz%2fUu6H1TjJ%3d',
    ]) {
      assert.deepEqual(await subscribe(s, endpoint), { status: 200, json: { success: true } }, endpoint);
    }
  });

  it('a host whose DNS answer turns private after subscribing gets no push: resolved again at send time (DNS rebinding; resolver test double)', async () => {
    // Given: a subscription whose host resolved to a public address, then resolves to loopback.
    let asked = 0;
    const rebinding: HostResolver = () => Promise.resolve([{ address: asked++ === 0 ? '142.250.74.42' : '127.0.0.1', family: 4 }]);
    const log = new LogCapture();
    const s = await server({}, rebinding, log);
    assert.equal((await subscribe(s, 'https://fcm.googleapis.com/fcm/send/x')).status, 200);

    // When: a message is published to its topic.
    assert.equal((await fetch(`${s.url}/alerts`, { method: 'POST', body: 'hi' })).status, 200);

    // Then: the push's own lookup refused the address, so no connection was made.
    const failed = await log.next((r) => r.msg === 'web push failed; subscription kept');
    assert.equal((failed.err as Json).message, 'fcm.googleapis.com resolves to 127.0.0.1, not a public address');
    assert.equal(asked, 2);
  });
});
