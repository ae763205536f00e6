import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import bcrypt from 'bcryptjs';
import webpush from 'web-push';
import type { Json } from '../support/clients.js';
import { PushService, type Browser } from '../support/push-service.js';
import { startTestServer, tempDir, type TestServer } from '../support/server.js';

/** Web Push to browsers: a real server pushing to a local push service that checks VAPID and decrypts. */

const baseUrl = 'http://tocsin.test';
const vapid = webpush.generateVAPIDKeys();
const day = 24 * 3600;

async function setup(settings: Record<string, unknown> = {}): Promise<{ s: TestServer; service: PushService }> {
  const service = await PushService.start(vapid.publicKey);
  const s = await startTestServer({
    'base-url': baseUrl,
    'web-push-public-key': vapid.publicKey,
    'web-push-private-key': vapid.privateKey,
    'web-push-file': join(tempDir(), 'webpush.db'),
    'web-push-email-address': 'admin@tocsin.test',
    'web-push-allowed-endpoints': [`${service.url}/push/`],
    'web-push-allow-private-endpoints': true, // the push service listens on 127.0.0.1
    ...settings,
  });
  after(() => s.server.close());
  after(() => assert.deepEqual(service.problems, [], 'every push passed the push service\'s checks'));
  return { s, service };
}

async function call(s: TestServer, method: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: Json }> {
  const res = await fetch(`${s.url}/v1/webpush`, { method, body: typeof body === 'string' ? body : JSON.stringify(body), headers });
  return { status: res.status, json: (await res.json()) as Json };
}

const subscribe = (s: TestServer, browser: Browser, topics: string[], headers?: Record<string, string>): Promise<{ status: number; json: Json }> =>
  call(s, 'POST', { endpoint: browser.endpoint, auth: browser.auth, p256dh: browser.p256dh, topics }, headers);

async function publish(s: TestServer, topic: string, body: string, headers: Record<string, string> = {}): Promise<Json> {
  const res = await fetch(`${s.url}/${topic}`, { method: 'POST', body, headers });
  assert.equal(res.status, 200);
  return (await res.json()) as Json;
}

const codeOf = ({ status, json }: { status: number; json: Json }): [number, unknown] => [status, json.code];

describe('web push — pushing', () => {
  it('a published message reaches a subscribed browser: VAPID-signed, aes128gcm, ntfy\'s payload', async () => {
    // Given: a browser subscribed to two topics.
    const { s, service } = await setup();
    const browser = service.browser('firefox');
    assert.deepEqual(await subscribe(s, browser, ['alerts', 'ops']), { status: 200, json: { success: true } });

    // When: a message is published to one of them.
    const message = await publish(s, 'alerts', 'Disk full', { Title: 'srv1', Tags: 'warning' });

    // Then: the push decrypts to ntfy's payload with the message as published.
    const push = await service.pushes.take(5000);
    assert.equal(push.browser, 'firefox');
    assert.deepEqual(push.payload, { event: 'message', subscription_id: `${baseUrl}/alerts`, message });
    assert.equal(push.claims.sub, 'mailto:admin@tocsin.test');
    assert.equal(push.headers.ttl, String(12 * 3600), 'TTL is cache-duration, as ntfy');
    assert.equal(push.headers.urgency, 'high');
    await publish(s, 'unrelated', 'not for the browser');
    await publish(s, 'ops', 'second');
    const second = await service.pushes.take(5000);
    assert.equal((second.payload.message as Json).message, 'second', 'nothing was pushed for the unrelated topic');
  });

  it('the publish is answered while the push service has not answered yet', async () => {
    const { s, service } = await setup();
    await subscribe(s, service.browser('slow'), ['alerts']);
    service.hold();
    await publish(s, 'alerts', 'first');
    await service.pushes.take(5000);
    const started = performance.now();
    await publish(s, 'alerts', 'second');
    assert.ok(performance.now() - started < 1000, 'answered at once');
    await service.pushes.take(5000);
    assert.equal(service.received, 2, 'both pushes are out, neither answered yet');
    service.release();
  });

  it('a scheduled message is pushed when it is delivered, not when it is published', async () => {
    const { s, service } = await setup({ 'message-delay-min': '1s' });
    await subscribe(s, service.browser('b'), ['later']);
    const published = await publish(s, 'later', 'in a second', { In: '1s' });
    assert.equal(service.received, 0);
    const push = await service.pushes.take(10_000);
    assert.equal((push.payload.message as Json).id, published.id);
    assert.ok(Date.now() / 1000 >= (published.time as number), 'not before its time');
  });

  it('a push service answering 401, 403, 404 or 410 removes the subscription; 429, 5xx and a dropped connection keep it', async () => {
    // Given: browsers whose push service answers each way
    const { s, service } = await setup();
    const answers = { unauthorized: 401, forbidden: 403, missing: 404, gone: 410, limited: 429, broken: 500, busy: 503, dropped: 'reset' } as const;
    for (const [name, answer] of Object.entries(answers)) {
      await subscribe(s, service.browser(name), ['t']);
      service.answer(name, answer);
    }
    // When: a message is pushed to all of them
    await publish(s, 't', 'one');
    const pushed = async (count: number): Promise<string[]> => {
      const names: string[] = [];
      while (names.length < count) names.push((await service.pushes.take(5000)).browser);
      return names.sort();
    };
    assert.deepEqual(await pushed(8), Object.keys(answers).sort());
    await s.server.context.webPush?.settled();
    // Then: those the push service disowned are gone, the others kept for the next message
    const kept = ['broken', 'busy', 'dropped', 'limited'];
    const left = await s.server.context.webPush?.store.forTopic('t');
    assert.deepEqual(left?.map((sub) => sub.endpoint), kept.map((name) => `${service.url}/push/${name}`));
    await publish(s, 't', 'two');
    assert.deepEqual(await pushed(4), kept);
  });

  it('a push taken renews the subscription\'s age (web-push-expiry-duration counts from it); one refused does not', async () => {
    // Given: two subscriptions kept 59 days ago (as another server kept them), one at a push service that refuses
    const { s, service } = await setup();
    const webPush = s.server.context.webPush;
    assert.ok(webPush);
    const now = Math.floor(Date.now() / 1000);
    for (const name of ['taken', 'refused']) {
      const b = service.browser(name);
      await webPush.store.import({ id: `wps_${name.padEnd(10, '0')}`, endpoint: b.endpoint, auth: b.auth, p256dh: b.p256dh, userId: '', subscriberIp: '9.9.9.9', updatedAt: now - 59 * day, warnedAt: now - 4 * day, topics: ['t'] });
    }
    service.answer('refused', 503);
    // When: a message is pushed to both
    await publish(s, 't', 'still here');
    await service.pushes.take(5000);
    await service.pushes.take(5000);
    await webPush.settled();
    // Then: two days later only the refused one has expired (60 days unrenewed); the renewed one may be warned again in time
    assert.deepEqual(await webPush.housekeep(now + 2 * day), { removed: 1, warned: 0 });
    assert.deepEqual(await webPush.store.forTopic('t').then((subs) => subs.map((sub) => sub.id)), ['wps_taken00000']);
    assert.deepEqual(await webPush.housekeep(now + 56 * day), { removed: 0, warned: 1 }, 'renewing cleared the warning sent');
    assert.deepEqual((await service.pushes.take(5000)).payload, { event: 'subscription_expiring' });
  });

  it('TTL is web-push-ttl; without it cache-duration; with neither 28 days. Urgency is high', async () => {
    const ttlOf = async (settings: Record<string, unknown>): Promise<[unknown, unknown]> => {
      const { s, service } = await setup(settings);
      await subscribe(s, service.browser('b'), ['t']);
      await publish(s, 't', 'x');
      const { headers } = await service.pushes.take(5000);
      return [headers.ttl, headers.urgency];
    };
    assert.deepEqual(await ttlOf({ 'web-push-ttl': '2h' }), ['7200', 'high']);
    assert.deepEqual(await ttlOf({ 'web-push-ttl': '2h', 'cache-duration': '0' }), ['7200', 'high']);
    assert.deepEqual(await ttlOf({ 'cache-duration': '3d' }), [String(3 * day), 'high']);
    assert.deepEqual(await ttlOf({ 'cache-duration': '0' }), [String(28 * day), 'high'], 'never 0 ("now or never")');
  });

  it('an unsubscribed browser (DELETE) gets nothing more', async () => {
    const { s, service } = await setup();
    const browser = service.browser('b');
    await subscribe(s, browser, ['t']);
    assert.deepEqual(await call(s, 'DELETE', { endpoint: browser.endpoint }), { status: 200, json: { success: true } });
    await publish(s, 't', 'after');
    await s.server.context.webPush?.settled();
    assert.equal(service.received, 0);
  });
});

describe('web push — expiry', () => {
  it('warns a subscription not renewed for the warning duration once, removes it after the expiry duration; renewing clears the warning', async () => {
    const { s, service } = await setup();
    const webPush = s.server.context.webPush;
    assert.ok(webPush);
    const browser = service.browser('b');
    await subscribe(s, browser, ['t']);
    const now = Math.floor(Date.now() / 1000);

    assert.deepEqual(await webPush.housekeep(now + 54 * day), { removed: 0, warned: 0 });
    assert.deepEqual(await webPush.housekeep(now + 56 * day), { removed: 0, warned: 1 });
    assert.deepEqual((await service.pushes.take(5000)).payload, { event: 'subscription_expiring' });
    assert.deepEqual(await webPush.housekeep(now + 57 * day), { removed: 0, warned: 0 }, 'warned once');

    await subscribe(s, browser, ['t']); // the web app renews at its next start (here at the same real time)
    assert.deepEqual(await webPush.housekeep(now + 54 * day), { removed: 0, warned: 0 });
    assert.deepEqual(await webPush.housekeep(now + 56 * day), { removed: 0, warned: 1 }, 'renewing cleared the warning');
    assert.deepEqual((await service.pushes.take(5000)).payload, { event: 'subscription_expiring' });
    assert.deepEqual(await webPush.housekeep(now + 60 * day - 1), { removed: 0, warned: 0 });
    assert.deepEqual(await webPush.housekeep(now + 61 * day), { removed: 1, warned: 0 });
    assert.deepEqual(await webPush.store.forTopic('t'), []);
    assert.equal(service.received, 2);
  });
});

describe('web push — subscriptions refused', () => {
  it('40038 for a malformed body, 40039 for an unknown push service, 40040 past 50 topics, 40009 for a bad topic', async () => {
    const { s, service } = await setup();
    const b = service.browser('b');
    const valid = { endpoint: b.endpoint, auth: b.auth, p256dh: b.p256dh, topics: ['t'] };
    for (const body of ['not json', '[]', { ...valid, endpoint: '' }, { ...valid, auth: undefined }, { ...valid, p256dh: '' }, { ...valid, topics: 't' }, { ...valid, topics: [1] }]) {
      assert.deepEqual(codeOf(await call(s, 'POST', body)), [400, 40038], JSON.stringify(body));
    }
    assert.deepEqual(codeOf(await call(s, 'DELETE', {})), [400, 40038]);
    assert.deepEqual(codeOf(await call(s, 'POST', { ...valid, endpoint: 'https://push.evil.example/x' })), [400, 40039]);
    const many = Array.from({ length: 51 }, (_, i) => `t${i}`);
    assert.deepEqual(codeOf(await call(s, 'POST', { ...valid, topics: many })), [400, 40040]);
    assert.deepEqual(await call(s, 'POST', { ...valid, topics: many.slice(0, 50) }), { status: 200, json: { success: true } });
    assert.deepEqual(codeOf(await call(s, 'POST', { ...valid, topics: ['no/slash'] })), [400, 40009]);
  });

  it('an address may register 10 endpoints; the eleventh is 429', async () => {
    const { s, service } = await setup();
    for (let i = 0; i < 10; i++) assert.equal((await subscribe(s, service.browser(`b${i}`), ['t'])).status, 200);
    assert.deepEqual(codeOf(await subscribe(s, service.browser('b10'), ['t'])), [429, 42901]);
    assert.equal((await subscribe(s, service.browser('b3'), ['u'])).status, 200, 'a known endpoint still renews');
  });

  it('each topic needs read permission (40301); the subscription is the user\'s', async () => {
    const hash = bcrypt.hashSync('pw', 4);
    const { s, service } = await setup({
      'auth-file': join(tempDir(), 'auth.db'),
      'auth-default-access': 'deny-all',
      'enable-login': true,
      'auth-users': [`phil:${hash}:user`],
      'auth-access': ['phil:mine:rw'],
    });
    const basic = { Authorization: `Basic ${Buffer.from('phil:pw').toString('base64')}` };
    const b = service.browser('b');
    assert.deepEqual(codeOf(await subscribe(s, b, ['mine'])), [403, 40301], 'anonymous');
    assert.deepEqual(codeOf(await subscribe(s, b, ['mine', 'other'], basic)), [403, 40301], 'one topic not readable');
    assert.deepEqual(await subscribe(s, b, ['mine'], basic), { status: 200, json: { success: true } });
    const [sub] = (await s.server.context.webPush?.store.forTopic('mine')) ?? [];
    assert.equal(sub?.userId, 'phil');
  });

  it('deleting an account removes its browsers\' subscriptions, and only theirs', async () => {
    const { s, service } = await setup({ 'auth-file': join(tempDir(), 'auth.db'), 'enable-login': true, 'enable-signup': true });
    assert.equal((await fetch(`${s.url}/v1/account`, { method: 'POST', body: JSON.stringify({ username: 'ben', password: 'pw' }) })).status, 200);
    const basic = { Authorization: `Basic ${Buffer.from('ben:pw').toString('base64')}` };
    const [own, anonymous] = [service.browser('ben'), service.browser('anon')];
    await subscribe(s, own, ['t'], basic);
    await subscribe(s, anonymous, ['t']);
    const res = await fetch(`${s.url}/v1/account`, { method: 'DELETE', body: JSON.stringify({ password: 'pw' }), headers: basic });
    assert.equal(res.status, 200);
    const left = await s.server.context.webPush?.store.forTopic('t');
    assert.deepEqual(left?.map((sub) => [sub.endpoint, sub.userId]), [[anonymous.endpoint, '']]);
  });

  it('without web push the routes are 404 and /v1/config says so; with it, /config.js carries the public key', async () => {
    const plain = await startTestServer();
    after(() => plain.server.close());
    assert.deepEqual(codeOf(await call(plain, 'POST', {})), [404, 40401]);
    const off = (await (await fetch(`${plain.url}/v1/config`)).json()) as Json;
    assert.deepEqual([off.enable_web_push, off.web_push_public_key], [false, '']);

    const { s } = await setup();
    const script = await (await fetch(`${s.url}/config.js`)).text();
    const config = JSON.parse(script.replace(/^[^{]*/, '').replace(/;\s*$/, '')) as Json;
    assert.deepEqual([config.enable_web_push, config.web_push_public_key], [true, vapid.publicKey]);
  });
});
